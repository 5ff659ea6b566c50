package io.looplab.manyloops;

/**
 * One round of a race: {@code batches} batches counted in {@code millis} of wall time, with two or more loops
 * counting at the same moment for {@code parallelMicros} of it (see {@link BatchLog}).
 */
record Round(int batches, long millis, long parallelMicros) {
}
