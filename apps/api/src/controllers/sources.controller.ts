import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CreateSourceDto, SourceService, UpdateSourceDto } from '@jobctrl/discovery';
import { ApiErrors } from '../openapi/api-errors.decorator';

@ApiTags('sources')
@Controller('v1/sources')
export class SourcesController {
  constructor(private readonly sources: SourceService) {}

  @Get()
  list() {
    return this.sources.list();
  }

  /**
   * Each source kind's config rules (fields, types, required, defaults, enum options), published by
   * the adapters from the declarations their validation reads. Before `:id`, which it would match.
   */
  @Get('kinds')
  kinds() {
    return this.sources.kinds();
  }

  @Get(':id')
  @ApiErrors(400, 404)
  get(@Param('id', ParseUUIDPipe) id: string) {
    return this.sources.get(id);
  }

  @Post()
  @ApiErrors(400, 409)
  create(@Body() dto: CreateSourceDto) {
    return this.sources.create(dto);
  }

  @Patch(':id')
  @ApiErrors(400, 404, 409)
  update(@Param('id', ParseUUIDPipe) id: string, @Body() dto: UpdateSourceDto) {
    return this.sources.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiErrors(400, 404)
  remove(@Param('id', ParseUUIDPipe) id: string) {
    return this.sources.remove(id);
  }
}
