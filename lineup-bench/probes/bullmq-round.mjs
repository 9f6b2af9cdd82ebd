// One round of BullMQ's side of bullmq-side-by-side (see its header), in the shapes of the bench's
// own scenarios, on a given Redis that nothing else uses meanwhile. Prints one line of JSON with
// each figure measured and, for the rates, the Redis CPU per job (INFO cpu around the measurement,
// in microseconds). Each stage starts from an empty server and flushes it when done.
//
//   publish  publish_per_s: single Queue.add calls, 64 in flight (the bench's publish_per_s)
//   bulk     publish_bulk_per_s: Queue.addBulk of 100 jobs, 8 calls in flight, into an empty
//            queue; bytes_per_job: Redis used_memory after minus before, per job now waiting
//   consume  consume_per_s: jobs waiting (published in bulk first), drained by one Worker of
//            concurrency 256 with a handler that does nothing, keeping the last 10,000 finished
//            jobs as Lineup does by default
//   late     late_ms_p50, late_ms_p99: 2,000 delayed jobs due at even steps over 2 s, the first
//            due 1 s after publishing starts, run by 2 idle Workers of concurrency 32; lateness is
//            the time the handler starts minus the due time BullMQ holds (timestamp + opts.delay)
//
// Every measured stage runs an unmeasured warm-up of a tenth of its size (at least 2,000; for late,
// a whole round of its shape) first.
// Payloads are 100 bytes. Usage: node bullmq-round.mjs <port> <stages,...> <publish-jobs>
//   <bulk-jobs> <consume-jobs>
import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';

const [port, stageList, publishJobs, bulkJobs, consumeJobs] = [
  Number(process.argv[2]),
  process.argv[3],
  Number(process.argv[4]),
  Number(process.argv[5]),
  Number(process.argv[6]),
];
const stages = new Set(stageList.split(','));
const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null };
const payload = 'x'.repeat(100);
// Finished jobs kept as Lineup keeps them by default: the last 10,000.
const keep = { removeOnComplete: { count: 10000 }, removeOnFail: { count: 10000 } };
const PUBLISH_IN_FLIGHT = 64;
const BULK_SIZE = 100;
const BULK_IN_FLIGHT = 8;
const CONSUME_CONCURRENCY = 256;
const LATE = { jobs: 2000, spreadMs: 2000, leadMs: 1000, workers: 2, concurrency: 32 };

const admin = new IORedis(connection);
const nowMs = () => performance.timeOrigin + performance.now();
const warmup = (n) => Math.max(2000, Math.floor(n / 10));

/** Numeric fields of one INFO section, in the order asked. */
async function info(section, ...fields) {
  const text = await admin.info(section);
  return fields.map((field) => Number(text.match(new RegExp(`${field}:([0-9.]+)`))[1]));
}

async function redisCpuMicros() {
  const [sys, user] = await info('cpu', 'used_cpu_sys', 'used_cpu_user');
  return (sys + user) * 1e6;
}

async function emptyServer() {
  await admin.flushall('SYNC');
  while ((await info('memory', 'lazyfree_pending_objects'))[0] > 0) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Runs task(i) for i in [0, count) with at most inFlight promises pending. */
async function inFlight(count, limit, task) {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      await task(next++);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
}

/** Measures fn's wall time and Redis CPU over jobs; returns { per_s, redis_us_per_job }. */
async function measured(jobs, fn) {
  const cpuBefore = await redisCpuMicros();
  const start = nowMs();
  await fn();
  const seconds = (nowMs() - start) / 1000;
  const cpuAfter = await redisCpuMicros();
  return {
    per_s: Math.round(jobs / seconds),
    redis_us_per_job: Number(((cpuAfter - cpuBefore) / jobs).toFixed(2)),
  };
}

function job() {
  return { name: 'job', data: { payload }, opts: keep };
}

async function publishSingle(queue, jobs) {
  await inFlight(jobs, PUBLISH_IN_FLIGHT, () => queue.add('job', { payload }, keep));
}

async function publishBulk(queue, jobs) {
  const calls = Math.ceil(jobs / BULK_SIZE);
  await inFlight(calls, BULK_IN_FLIGHT, (c) => {
    const size = Math.min(BULK_SIZE, jobs - c * BULK_SIZE);
    return queue.addBulk(Array.from({ length: size }, job));
  });
}

async function drain(name, jobs) {
  let done = 0;
  let worker;
  await new Promise((resolve) => {
    worker = new Worker(name, async () => null, {
      connection,
      concurrency: CONSUME_CONCURRENCY,
      autorun: false,
    });
    worker.on('completed', () => {
      if (++done === jobs) {
        resolve();
      }
    });
    worker.run();
  });
  await worker.close();
}

/** Runs stage(name, jobs) unmeasured on a tenth of the jobs (at least 2,000), then measured. */
async function warmedUp(name, jobs, stage) {
  await stage(`${name}-warmup`, warmup(jobs));
  return stage(name, jobs);
}

async function publishRound(name, jobs) {
  const queue = new Queue(name, { connection });
  const figure = await measured(jobs, () => publishSingle(queue, jobs));
  await queue.close();
  await emptyServer();
  return figure;
}

async function bulkRound(name, jobs) {
  const queue = new Queue(name, { connection });
  await queue.waitUntilReady();
  const [memoryBefore] = await info('memory', 'used_memory');
  const figure = await measured(jobs, () => publishBulk(queue, jobs));
  const [memoryAfter] = await info('memory', 'used_memory');
  await queue.close();
  await emptyServer();
  return { figure, bytesPerJob: Math.round((memoryAfter - memoryBefore) / jobs) };
}

async function consumeRound(name, jobs) {
  const queue = new Queue(name, { connection });
  await publishBulk(queue, jobs);
  const figure = await measured(jobs, () => drain(name, jobs));
  await queue.close();
  await emptyServer();
  return figure;
}

async function blockedClients() {
  return (await info('clients', 'blocked_clients'))[0];
}

/** Lateness of each job in ms, from LATE's shape. */
async function lateRound(name) {
  const lateness = [];
  let resolveAll;
  const all = new Promise((r) => (resolveAll = r));
  const handler = async (j) => {
    // job.delay is zeroed when the job is promoted from the delayed set; opts keeps the delay asked.
    lateness.push(nowMs() - (j.timestamp + j.opts.delay));
    if (lateness.length === LATE.jobs) {
      resolveAll();
    }
    return null;
  };
  const blockedBefore = await blockedClients();
  const workers = Array.from(
    { length: LATE.workers },
    () => new Worker(name, handler, { connection, concurrency: LATE.concurrency }),
  );
  // Idle for real: each worker sits in its blocking wait before the jobs are published.
  const idleBy = nowMs() + 30000;
  while ((await blockedClients()) < blockedBefore + LATE.workers && nowMs() < idleBy) {
    await new Promise((r) => setTimeout(r, 5));
  }
  const queue = new Queue(name, { connection });
  await queue.waitUntilReady();
  const first = nowMs() + LATE.leadMs;
  for (let c = 0; c < LATE.jobs / BULK_SIZE; c++) {
    const bulk = [];
    for (let i = c * BULK_SIZE; i < (c + 1) * BULK_SIZE; i++) {
      const due = first + (i * LATE.spreadMs) / LATE.jobs;
      const delay = Math.max(0, Math.round(due - Date.now()));
      bulk.push({ name: 'job', data: { payload }, opts: { ...keep, delay } });
    }
    await queue.addBulk(bulk);
  }
  await all;
  await Promise.all(workers.map((w) => w.close()));
  await queue.close();
  await emptyServer();
  return lateness.sort((a, b) => a - b);
}

function percentile(sorted, q) {
  return Number(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)].toFixed(2));
}

const result = {};
await emptyServer();
if (stages.has('publish')) {
  result.publish_per_s = await warmedUp('publish', publishJobs, publishRound);
}
if (stages.has('bulk')) {
  const bulk = await warmedUp('bulk', bulkJobs, bulkRound);
  result.publish_bulk_per_s = bulk.figure;
  result.bytes_per_job = bulk.bytesPerJob;
}
if (stages.has('consume')) {
  result.consume_per_s = await warmedUp('consume', consumeJobs, consumeRound);
}
if (stages.has('late')) {
  // Every round has LATE's shape, its warm-up too.
  const sorted = await warmedUp('late', LATE.jobs, (name) => lateRound(name));
  result.late_ms_p50 = percentile(sorted, 0.5);
  result.late_ms_p99 = percentile(sorted, 0.99);
}
admin.disconnect();
console.log(JSON.stringify(result));
