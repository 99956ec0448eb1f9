/**
 * A progress indicator on stderr while the command line waits. On a terminal: one line redrawn with a
 * spinner and the elapsed time. Elsewhere (pipes, CI logs): a plain line each time the state changes.
 */
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Progress {
  /** The current state, e.g. "anchor WAIT: waiting for the batch to be sent". */
  update(state: string): void;
  /** A line that stays (the indicator is redrawn below it). */
  note(line: string): void;
  /** Clears the line (terminal) and writes `final` when given. */
  done(final?: string): void;
}

export function progress(stream: NodeJS.WriteStream = process.stderr, enabled = true): Progress {
  if (!enabled) return { update: () => undefined, note: () => undefined, done: () => undefined };
  const started = Date.now();
  let state = '';
  if (!stream.isTTY) {
    return {
      update: (s) => {
        if (s !== state) stream.write(`${s}\n`);
        state = s;
      },
      note: (line) => {
        stream.write(`${line}\n`);
      },
      done: (final) => {
        if (final) stream.write(`${final}\n`);
      },
    };
  }
  let frame = 0;
  const draw = () => {
    const secs = Math.floor((Date.now() - started) / 1000);
    stream.write(`\r\x1b[K${FRAMES[frame++ % FRAMES.length]} ${state} (${secs}s)`);
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    update: (s) => {
      state = s;
      draw();
    },
    note: (line) => {
      stream.write(`\r\x1b[K${line}\n`);
      draw();
    },
    done: (final) => {
      clearInterval(timer);
      stream.write('\r\x1b[K');
      if (final) stream.write(`${final}\n`);
    },
  };
}
