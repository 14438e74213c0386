/**
 * Collects items during one turn of the event loop and hands them to `write` together, in
 * the order they came, once the turn's I/O has been handled (setImmediate runs in the check
 * phase, after every readable connection of the turn has been read).
 *
 * The server sends its replies this way. Writing each reply as soon as it is ready wakes the
 * client (or the proxy in front) once per reply, and on a virtual machine that wake-up costs
 * the sender more than the rest of the request. Written back to back, the replies of a
 * turn wake the reader once. A lone request waits only until the end of its own turn.
 *
 * An item whose `write` throws goes to `onError`; the rest of its turn is still written.
 */
export function createTurnBatch<T>(
  write: (item: T) => void,
  onError: (error: unknown) => void
): (item: T) => void {
  let pending: T[] = []
  let scheduled = false
  const flush = (): void => {
    scheduled = false
    const items = pending
    pending = []
    for (const item of items) {
      // One failing item must not leave the others of its turn unwritten.
      try {
        write(item)
      } catch (error) {
        onError(error)
      }
    }
  }
  return (item) => {
    pending.push(item)
    if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
  }
}
