import type { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { Command } from 'commander';
import { EXIT } from './exit-codes.js';

/**
 * Where one run of the `flagpole` command reads and writes: the bin gives it its own process's (`src/cli.ts`),
 * a test its own environment and streams, so the same function runs in either.
 */
export interface CliIo {
  /** The environment: the options' variables (`--token` from `FLAGPOLE_TOKEN`, ...) and the tools' settings. */
  env: NodeJS.ProcessEnv;
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
}

/** One run of a command: its {@link CliIo}, and the exit code its action ends with (`EXIT.ok` unless set). */
export interface CliRun extends CliIo {
  exitCode: number;
  /** A line for the operator on standard error (the tool's output, not a log). */
  say(line: string): void;
}

/** A {@link CliRun} over `io`, exit code 0 until an action sets another. */
export function cliRun(io: CliIo): CliRun {
  return { ...io, exitCode: EXIT.ok, say: (line) => void io.stderr.write(`${line}\n`) };
}

/**
 * A commander `Command` whose options read their environment variable (`Option.env`) from the run's
 * environment instead of `process.env`, and whose help and errors go to the run's streams: a command run in
 * the test's process sees what it was given, as a process of its own sees its own.
 *
 * @example new CliCommand('backup', run).addOption(new Option('--token <token>').env('FLAGPOLE_TOKEN'))
 */
export class CliCommand extends Command {
  readonly #env: NodeJS.ProcessEnv;

  constructor(name: string, io: CliIo) {
    super(name);
    this.#env = io.env;
    this.configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      // Commander's default: a terminal's width, else 80.
      getOutHelpWidth: () => (io.stdout.isTTY ? io.stdout.columns : undefined) ?? 80,
      getErrHelpWidth: () => (io.stderr.isTTY ? io.stderr.columns : undefined) ?? 80,
    });
  }

  /**
   * Commander's own step of this name (lib/command.js, the version package-lock.json pins), over the run's
   * environment: after the command line, each option it left unset takes its variable's value.
   */
  _parseOptionsEnv(): void {
    for (const option of this.options) {
      if (option.envVar === undefined || !(option.envVar in this.#env)) continue;
      const key = option.attributeName();
      const source = this.getOptionValueSource(key);
      if (this.getOptionValue(key) !== undefined && !['default', 'config', 'env'].includes(source ?? '')) continue;
      // A Command is an EventEmitter (its typings leave that out): the option's own handler takes the value.
      const events = this as unknown as EventEmitter;
      if (option.required || option.optional) events.emit(`optionEnv:${option.name()}`, this.#env[option.envVar]);
      else events.emit(`optionEnv:${option.name()}`);
    }
  }
}
