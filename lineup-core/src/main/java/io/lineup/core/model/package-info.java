/**
 * The engine's values, settings and exceptions: what {@code io.lineup.core}'s runtime takes and
 * returns (jobs, queue names and settings, leases, positions and ETAs) and what it throws. Nothing
 * here calls Redis or the runtime, so the runtime and the store both build on these types and never
 * on each other's.
 */
package io.lineup.core.model;
