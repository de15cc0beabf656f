import { Controller, Sse } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Observable } from 'rxjs';
import { LiveEventsService, type LiveEvent } from '@jobctrl/runs';

@ApiTags('operations')
@Controller('v1/events')
export class EventsController {
  constructor(private readonly events: LiveEventsService) {}

  /**
   * Server-sent events: `ready`, then `run` (a run's view, as GET /v1/pipeline/runs/:id), `spend`
   * (as GET /v1/spend) and `job` ({jobKey, stage, previousStage}) whenever one changes.
   */
  @Sse()
  stream(): Observable<LiveEvent> {
    return this.events.stream();
  }
}
