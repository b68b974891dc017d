import { Ctx, MessagePattern, Payload, type BaseRpcContext } from '@nestjs/microservices';
import { BusController, busHeaders } from '@app/bus';
import { type ExtractReply, ExtractRequest, type FetchPageReply, FetchPageRequest, subjects } from '@app/contracts';
import { chargeContextFrom } from '@app/platform';
import { ExtractService } from './extract.service';

@BusController()
export class ExtractionHandler {
  constructor(private readonly extractor: ExtractService) {}

  @MessagePattern(subjects.extract)
  extract(@Payload() request: ExtractRequest, @Ctx() ctx: BaseRpcContext): Promise<ExtractReply> {
    return this.extractor.extract(request, chargeContextFrom(busHeaders(ctx)));
  }

  @MessagePattern(subjects.read)
  read(@Payload() request: ExtractRequest) {
    return this.extractor.read(request);
  }

  @MessagePattern(subjects.fetchPage)
  fetchPage(@Payload() request: FetchPageRequest): Promise<FetchPageReply> {
    return this.extractor.fetchPage(request);
  }
}
