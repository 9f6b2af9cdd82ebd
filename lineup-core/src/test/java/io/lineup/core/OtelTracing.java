package io.lineup.core;

import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.List;

/**
 * A real tracer for tests, as an application wires one: the OpenTelemetry SDK with W3C propagation,
 * bridged to an {@link ObservationRegistry} by Micrometer Tracing's handlers, its finished spans
 * kept in memory.
 */
final class OtelTracing implements AutoCloseable {
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final OpenTelemetrySdk sdk;
  private final OtelTracer tracer;
  private final ObservationRegistry registry = ObservationRegistry.create();

  OtelTracing() {
    sdk =
        OpenTelemetrySdk.builder()
            .setTracerProvider(
                SdkTracerProvider.builder()
                    .setSampler(Sampler.alwaysOn())
                    .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                    .build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    io.opentelemetry.api.trace.Tracer otel = sdk.getTracer("lineup-test");
    tracer = new OtelTracer(otel, new OtelCurrentTraceContext(), event -> {});
    OtelPropagator propagator = new OtelPropagator(sdk.getPropagators(), otel);
    registry
        .observationConfig()
        .observationHandler(
            new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
  }

  /** The registry to give Lineup. */
  ObservationRegistry registry() {
    return registry;
  }

  /** The tracer, to read the current span. */
  OtelTracer tracer() {
    return tracer;
  }

  /** The spans finished so far. */
  List<SpanData> spans() {
    return exporter.getFinishedSpanItems();
  }

  @Override
  public void close() {
    sdk.close();
  }
}
