package io.lineup.testing;

import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.trace.SpanKind;
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
 * A real tracer for tests, wired as an application wires one: the OpenTelemetry SDK with W3C
 * propagation, bridged to an {@link ObservationRegistry} by Micrometer Tracing's handlers, every
 * span sampled and, once finished, kept in memory to be read by {@link #spans()}.
 *
 * <p>Its libraries ({@code micrometer-tracing-bridge-otel}, {@code opentelemetry-sdk-testing}) are
 * optional dependencies of this module: a test module that uses this class declares them itself, so
 * the other modules' test class paths stay without a tracer.
 *
 * <p>Close it (try-with-resources, or a bean's destroy method) to shut the SDK down.
 */
public final class OtelTracing implements AutoCloseable {
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final OpenTelemetrySdk sdk;
  private final OtelTracer tracer;
  private final ObservationRegistry registry = ObservationRegistry.create();

  /** Builds the SDK and a registry whose observations become its spans. */
  public OtelTracing() {
    // A simple (synchronous) processor: a span is in the exporter as soon as it ends, so a test
    // that waited for an outcome reads its spans without waiting for a batch.
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
    // The first handler that supports a context takes it: sender contexts (publish) write the
    // trace context into the job, receiver contexts (process) read it back, the rest are plain.
    registry
        .observationConfig()
        .observationHandler(
            new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
  }

  /** The registry to give Lineup (or a Spring context): its observations become spans. */
  public ObservationRegistry registry() {
    return registry;
  }

  /** The tracer, to read the current span or to open one around a call. */
  public OtelTracer tracer() {
    return tracer;
  }

  /** The spans finished so far, in the order they finished. */
  public List<SpanData> spans() {
    return exporter.getFinishedSpanItems();
  }

  /** The spans of this kind finished so far, in the order they finished. */
  public List<SpanData> spans(SpanKind kind) {
    return spans().stream().filter(span -> span.getKind() == kind).toList();
  }

  /** Forgets the spans finished so far. */
  public void reset() {
    exporter.reset();
  }

  /** Shuts the SDK down; the spans read before stay readable. */
  @Override
  public void close() {
    sdk.close();
  }
}
