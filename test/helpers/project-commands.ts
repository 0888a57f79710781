/**
 * Commands of the project decider, for `when` (see `decider.ts`): the few that specs send most, with the
 * defaults a request without those fields gets.
 */
import type { Cmd } from '../../src/domain/commands.js';
import type { StrategyInput } from '../../src/domain/types.js';

/** `flag.create` with default metadata. */
export const createFlag = (name: string): Cmd<'flag.create'> =>
  ({ type: 'flag.create', name, description: '', flagType: 'release', impressionData: false });

/** `strategy.add` of `strategy` (the `default` strategy unless given). */
export const addStrategy = (feature: string, environment = 'development', strategy: StrategyInput = { name: 'default' }): Cmd<'strategy.add'> =>
  ({ type: 'strategy.add', feature, environment, strategy });

/** `/on` */
export const enable = (feature: string, environment = 'development'): Cmd<'flag.enable'> => ({ type: 'flag.enable', feature, environment });

/** `/off` */
export const disable = (feature: string, environment = 'development'): Cmd<'flag.disable'> => ({ type: 'flag.disable', feature, environment });

/** `DELETE /features/:name`: archives. */
export const archive = (feature: string): Cmd<'flag.archive'> => ({ type: 'flag.archive', feature });

/** `flag.update` (PUT) with the given description and default metadata otherwise. */
export const update = (feature: string, ifMatch?: number | 'mismatch', description = ''): Cmd<'flag.update'> =>
  ({ type: 'flag.update', feature, ...(ifMatch === undefined ? {} : { ifMatch }), description, flagType: 'release', stale: false, impressionData: false });
