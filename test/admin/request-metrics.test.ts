// Request counters and histograms kept outside prom-client, formatted by a real prom-client registry.
import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { RequestMetrics } from '../../plugins/admin/request-metrics.ts';

describe('request metrics', () => {
  it('counts per route and status and exposes cumulative buckets, sums and counts per route', async () => {
    const metrics = new RequestMetrics();
    const sample = { base: 'monitor' as const, method: 'GET', route: '/api/health' };
    metrics.observe({ ...sample, status: 200, durationMs: 0.5 });
    metrics.observe({ ...sample, status: 200, durationMs: 3 });
    metrics.observe({ ...sample, status: 503, durationMs: 20_000 });
    const registry = new Registry();
    registry.registerMetric(metrics.counter() as unknown as Parameters<Registry['registerMetric']>[0]);
    registry.registerMetric(metrics.histogram() as unknown as Parameters<Registry['registerMetric']>[0]);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE workbench_http_requests_total counter');
    expect(text).toContain('workbench_http_requests_total{base="monitor",method="GET",route="/api/health",status="200"} 2');
    expect(text).toContain('workbench_http_requests_total{base="monitor",method="GET",route="/api/health",status="503"} 1');
    expect(text).toContain('# TYPE workbench_http_request_duration_seconds histogram');
    const bucket = (le: string) => new RegExp(`workbench_http_request_duration_seconds_bucket\\{le="${le.replace('+', '\\+')}",base="monitor",method="GET",route="/api/health"\\} (\\d+)`).exec(text)?.[1];
    expect(bucket('0.001')).toBe('1');
    expect(bucket('0.0025')).toBe('1');
    expect(bucket('0.005')).toBe('2');
    expect(bucket('10')).toBe('2');
    expect(bucket('+Inf')).toBe('3');
    expect(text).toContain('workbench_http_request_duration_seconds_count{base="monitor",method="GET",route="/api/health"} 3');
    expect(text).toMatch(/workbench_http_request_duration_seconds_sum\{base="monitor",method="GET",route="\/api\/health"\} 20\.0035/);
  });
});
