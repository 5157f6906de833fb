import { WaitingError } from 'bullmq';
import type { Job } from 'bullmq';
import { trackRunningJobs } from './runningJobs';

// What the drain learns from the jobs this process runs: when none has run for a grace, which
// to release at the deadline, and that a job handed over once the drain is over is not run.

const fakeJob = () => {
  const moveToWait = jest.fn(async (_token?: string) => 0);
  return { job: { id: '1', moveToWait } as unknown as Job, moveToWait };
};
/** A run that ends when told to. */
const heldRun = () => {
  let end: () => void = () => undefined;
  const ended = new Promise<string>((resolve) => (end = () => resolve('done')));
  return { run: () => ended, end: () => end() };
};

describe('running jobs', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('quiet after the grace with none running; a running job holds it; the grace starts over at its end', async () => {
    const jobs = trackRunningJobs();
    let quiet = false;
    const first = jobs.quietFor(1000);
    void first.quiet.then(() => (quiet = true));
    await jest.advanceTimersByTimeAsync(999);
    expect(quiet).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(quiet).toBe(true);

    quiet = false;
    const watch = jobs.quietFor(1000);
    void watch.quiet.then(() => (quiet = true));
    const held = heldRun();
    const running = jobs.run('a:1', fakeJob().job, 'token', held.run);
    await jest.advanceTimersByTimeAsync(5000);
    expect(quiet).toBe(false);
    held.end();
    expect(await running).toBe('done');
    await jest.advanceTimersByTimeAsync(999);
    expect(quiet).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(quiet).toBe(true);
  });

  it('release: the jobs still running go back to their queue with their tokens; their end changes nothing', async () => {
    const jobs = trackRunningJobs();
    const { job, moveToWait } = fakeJob();
    const held = heldRun();
    const running = jobs.run('a:1', job, 'token-1', held.run);
    expect(await jobs.release()).toBe(1);
    expect(moveToWait).toHaveBeenCalledWith('token-1');
    expect(await jobs.release()).toBe(0);
    held.end();
    await running;
    expect(moveToWait).toHaveBeenCalledTimes(1);
  });

  it('after stop, a job handed over is not run: back to its queue, and BullMQ told to leave it there', async () => {
    const jobs = trackRunningJobs();
    jobs.stop();
    const { job, moveToWait } = fakeJob();
    const run = jest.fn(async () => 'ran');
    await expect(jobs.run('a:1', job, 'token-2', run)).rejects.toBeInstanceOf(WaitingError);
    expect(run).not.toHaveBeenCalled();
    expect(moveToWait).toHaveBeenCalledWith('token-2');
    // Redis not taking it back changes nothing here: its lock expires, BullMQ's stalled check
    // puts it back.
    moveToWait.mockRejectedValueOnce(new Error('Connection is closed.'));
    await expect(jobs.run('a:2', job, 'token-3', run)).rejects.toBeInstanceOf(WaitingError);
    expect(run).not.toHaveBeenCalled();
  });
});
