import { Controller, Get, Header } from '@nestjs/common';
import { TollgateMetrics } from './metrics';

@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: TollgateMetrics) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
