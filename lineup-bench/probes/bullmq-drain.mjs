// Drains jobs through BullMQ on a given Redis, for bullmq-side-by-side (see its header): publishes
// the jobs in bulks, then consumes them with one BullMQ Worker running a handler that does nothing,
// and prints one line of JSON: jobs, seconds, jobs per second and the Redis CPU per job (from INFO
// cpu around the drain, in microseconds).
//
// Usage: node bullmq-drain.mjs <port> <jobs> <concurrency> <queue-name>
import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';

const [port, jobs, concurrency, name] = [
  Number(process.argv[2]),
  Number(process.argv[3]),
  Number(process.argv[4]),
  process.argv[5],
];
const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null };
const payload = 'x'.repeat(100);
// Finished jobs kept as Lineup keeps them by default: the last 10,000.
const keep = { removeOnComplete: { count: 10000 }, removeOnFail: { count: 10000 } };

const queue = new Queue(name, { connection });
for (let i = 0; i < jobs; i += 1000) {
  const bulk = [];
  for (let j = i; j < Math.min(jobs, i + 1000); j++) {
    bulk.push({ name: 'job', data: { payload }, opts: keep });
  }
  await queue.addBulk(bulk);
}

const probe = new IORedis(connection);
async function redisCpuMicros() {
  const info = await probe.info('cpu');
  const value = (field) => Number(info.match(new RegExp(`${field}:([0-9.]+)`))[1]);
  return (value('used_cpu_sys') + value('used_cpu_user')) * 1e6;
}

const cpuBefore = await redisCpuMicros();
const start = process.hrtime.bigint();
let done = 0;
const finished = new Promise((resolve) => {
  const worker = new Worker(name, async () => null, { connection, concurrency, autorun: false });
  worker.on('completed', () => {
    done++;
    if (done === jobs) {
      resolve(worker);
    }
  });
  worker.run();
});
const worker = await finished;
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const cpuAfter = await redisCpuMicros();
await worker.close();
await queue.obliterate({ force: true });
await queue.close();
probe.disconnect();
console.log(
  JSON.stringify({
    jobs,
    seconds,
    per_s: Math.round(jobs / seconds),
    redis_us_per_job: Number(((cpuAfter - cpuBefore) / jobs).toFixed(2)),
  }),
);
