import { acquireWriterTurn, WriterReservationTimeoutError } from './writer-reservation';

describe('acquireWriterTurn', () => {
  it('hands the turn over in arrival order and skips a waiter that timed out', async () => {
    const order: string[] = [];
    const releaseFirst = await acquireWriterTurn('/db/a', 1000);
    const second = acquireWriterTurn('/db/a', 1000).then((release) => {
      order.push('second');
      return release;
    });
    const impatient = acquireWriterTurn('/db/a', 1);
    const third = acquireWriterTurn('/db/a', 1000).then((release) => {
      order.push('third');
      release();
    });
    // Another database has its own queue.
    (await acquireWriterTurn('/db/b', 1))();

    await expect(impatient).rejects.toBeInstanceOf(WriterReservationTimeoutError);
    await expect(impatient).rejects.toMatchObject({ code: 'SQLITE_BUSY', databasePath: '/db/a' });
    expect(order).toEqual([]);
    releaseFirst();
    releaseFirst(); // a second release must not hand out a second turn
    const releaseSecond = await second;
    expect(order).toEqual(['second']);
    releaseSecond();
    await third;
    expect(order).toEqual(['second', 'third']);
    // The queue is free again.
    (await acquireWriterTurn('/db/a', 1))();
  });
});
