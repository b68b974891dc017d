import type { RecordedCommand } from '@app/domain';
import { type RunContext, type RunExecutor, RunExecutorOf } from '@app/runs';
import { echoRuns, type EchoState } from './echo.kind';

/** Records each word of the text, one typed command at a time (a resumed run records only the rest). */
@RunExecutorOf(echoRuns)
export class EchoExecutor implements RunExecutor<typeof echoRuns> {
  readonly kind = echoRuns;

  async execute(run: RunContext<EchoState, RecordedCommand<typeof echoRuns>>): Promise<void> {
    if (run.state.status === 'absent') return;
    const words = run.state.params.text.split(/\s+/).filter(Boolean);
    for (let index = run.state.progress.words.length; index < words.length && !run.stopped(); index++) {
      await run.record({ type: 'RecordWord', index, word: words[index]! });
    }
  }
}
