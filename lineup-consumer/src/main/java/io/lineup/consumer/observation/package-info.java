/**
 * The Observation instrumentation that the engine and the client share: the contexts, key names and
 * conventions of the {@code lineup.publish} (producer) and {@code lineup.process} (consumer)
 * observations, which a metrics handler turns into timers and a tracing handler into spans that
 * carry the W3C trace context from publisher to worker through the job.
 */
package io.lineup.consumer.observation;
