import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { ServiceRunWorker } from '@app/runs';
import { FindAllExecutor } from './findall.executor';

/** The findall service's run worker: FindAll runs. */
@Injectable()
export class FindAllWorker extends ServiceRunWorker {
  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(CONFIG) config: Config, executor: FindAllExecutor) {
    super(store, config, 'findall', [executor]);
  }
}
