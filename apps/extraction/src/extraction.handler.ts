import { Ctx, MessagePattern, Payload, type BaseRpcContext } from '@nestjs/microservices';
import { BusController, busHeaders } from '@app/bus';
import {
  type ExtractReply,
  ExtractRequest,
  type FetchPageReply,
  FetchPageRequest,
  type MapReply,
  MapRequest,
  subjects,
} from '@app/contracts';
import { chargeContextFrom } from '@app/platform';
import { SiteMapper } from './crawl/site-map';
import { ExtractService } from './extract.service';

@BusController()
export class ExtractionHandler {
  constructor(
    private readonly extractor: ExtractService,
    private readonly mapper: SiteMapper,
  ) {}

  @MessagePattern(subjects.extract)
  extract(@Payload() request: ExtractRequest, @Ctx() ctx: BaseRpcContext): Promise<ExtractReply> {
    return this.extractor.extract(request, chargeContextFrom(busHeaders(ctx)));
  }

  @MessagePattern(subjects.read)
  read(@Payload() request: ExtractRequest) {
    return this.extractor.read(request);
  }

  @MessagePattern(subjects.map)
  map(@Payload() request: MapRequest, @Ctx() ctx: BaseRpcContext): Promise<MapReply> {
    return this.mapper.map(request, chargeContextFrom(busHeaders(ctx)));
  }

  @MessagePattern(subjects.fetchPage)
  fetchPage(@Payload() request: FetchPageRequest): Promise<FetchPageReply> {
    return this.extractor.fetchPage(request);
  }
}
