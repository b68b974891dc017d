import { Ctx, MessagePattern, Payload, type BaseRpcContext } from '@nestjs/microservices';
import { BusController, busHeaders } from '@app/bus';
import { SearchPageRequest, type SearchPageReply, type SearchReply, SearchRequest, subjects } from '@app/contracts';
import { chargeContextFrom } from '@app/platform';
import { SearchService } from './search.service';

@BusController()
export class SearchHandler {
  constructor(private readonly searches: SearchService) {}

  @MessagePattern(subjects.search)
  search(@Payload() request: SearchRequest, @Ctx() ctx: BaseRpcContext): Promise<SearchReply> {
    return this.searches.search(request, chargeContextFrom(busHeaders(ctx)));
  }

  @MessagePattern(subjects.searchPage)
  page(@Payload() request: SearchPageRequest): Promise<SearchPageReply> {
    return this.searches.providerPage(request);
  }
}
