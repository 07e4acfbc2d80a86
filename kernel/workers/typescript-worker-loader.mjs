// A pool worker run from TypeScript sources: registers the TypeScript loader in this thread, then loads the worker
// module named by the pool (workerData.sourceEntry) and hands its task function to piscina. Compiled builds load
// pool-worker.js directly and never use this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const worker = await import(workerData.sourceEntry);

export default worker.default;
