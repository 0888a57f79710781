import type { Operation } from 'fast-json-patch';
import type { FlagType, ProjectMeta, StrategyInput, Variant } from './types.js';

/** Commands that target one flag may carry the flag version the caller last saw (`If-Match`). */
interface FlagTarget {
  feature: string;
  ifMatch?: number | 'mismatch' | undefined;
}

interface EnvironmentTarget extends FlagTarget {
  environment: string;
}

/** Every command a project actor accepts; names are imperative. */
export type ProjectCommand =
  | { type: 'project.create'; meta: ProjectMeta }
  | { type: 'flag.create'; name: string; description: string; flagType: FlagType; impressionData: boolean }
  | ({ type: 'flag.update'; description: string; flagType: FlagType; stale: boolean; impressionData: boolean } & FlagTarget)
  | ({ type: 'flag.patch'; operations: Operation[] } & FlagTarget)
  | ({ type: 'flag.archive' } & FlagTarget)
  | { type: 'flag.revive'; features: string[] }
  | { type: 'flag.delete-archived'; features: string[] }
  | ({ type: 'flag.clone'; name: string; replaceGroupId: boolean } & FlagTarget)
  | ({ type: 'strategy.add'; strategy: StrategyInput } & EnvironmentTarget)
  | ({ type: 'strategy.update'; strategyId: string; strategy: StrategyInput } & EnvironmentTarget)
  | ({ type: 'strategy.patch'; strategyId: string; operations: Operation[] } & EnvironmentTarget)
  | ({ type: 'strategy.delete'; strategyId: string } & EnvironmentTarget)
  | ({ type: 'flag.enable' } & EnvironmentTarget)
  | ({ type: 'flag.disable' } & EnvironmentTarget)
  | ({ type: 'variants.set'; variants: Variant[] } & FlagTarget)
  | ({ type: 'variants.patch'; operations: Operation[] } & FlagTarget)
  | { type: 'default-strategy.set'; environment: string; strategy: StrategyInput }
  | { type: 'environment.connect'; environment: string }
  | { type: 'environment.disconnect'; environment: string }
  | { type: 'member.add'; userId: number; roleId: number }
  | { type: 'member.change'; userId: number; roleId: number }
  | { type: 'member.remove'; userId: number; roleId: number }
  | { type: 'member.purge'; userId: number };

export type ProjectCommandType = ProjectCommand['type'];
