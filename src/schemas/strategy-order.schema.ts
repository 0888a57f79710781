/**
 * Bodies of `POST .../strategies/set-sort-order` (Unleash 6.10 `setStrategySortOrderSchema`): the new
 * `sortOrder` of some strategies of one flag in one environment; and of `POST .../strategies/copy`.
 */
import * as v from 'valibot';
import { SHAPE_LIMITS } from '../limits.js';
import { EnvironmentNameSchema, StrategyIdSchema, integerIn, strictObject } from './common.schema.js';
import { mustBe } from './messages.js';

/** One strategy and its new place. */
export const StrategyOrderSchema = strictObject({
  id: StrategyIdSchema,
  sortOrder: integerIn(),
});
export type StrategyOrderBody = v.InferOutput<typeof StrategyOrderSchema>;

/**
 * The list: each id at most once, at most `SHAPE_LIMITS.strategyOrders` entries. An empty list is a
 * valid request that changes nothing (as in Unleash).
 *
 * @example v.parse(StrategySortOrderSchema, [{ id: 'a1', sortOrder: 1 }, { id: 'b2', sortOrder: 0 }])
 */
export const StrategySortOrderSchema = v.pipe(
  v.array(StrategyOrderSchema, mustBe('an array of {id, sortOrder}')),
  v.maxLength(SHAPE_LIMITS.strategyOrders, `must hold at most ${SHAPE_LIMITS.strategyOrders} strategies`),
  v.rawCheck<StrategyOrderBody[]>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const seen = new Set<string>();
    dataset.value.forEach((item, index) => {
      if (seen.has(item.id)) {
        addIssue({
          message: `strategy ids must be unique: "${item.id}" is listed more than once`,
          path: [
            { type: 'array', origin: 'value', input: dataset.value, key: index, value: item },
            { type: 'object', origin: 'value', input: item, key: 'id', value: item.id },
          ],
        });
      }
      seen.add(item.id);
    });
  }),
);

/**
 * Body of `POST .../environments/:environment/strategies/copy`: the environment to copy the flag's
 * strategies from and, optionally, which of them (by id; all when absent).
 *
 * @example v.parse(CopyStrategiesSchema, { fromEnvironment: 'development' })
 */
export const CopyStrategiesSchema = strictObject({
  fromEnvironment: EnvironmentNameSchema,
  strategyIds: v.optional(v.pipe(
    v.array(StrategyIdSchema, mustBe('an array of strategy ids')),
    v.maxLength(SHAPE_LIMITS.strategyOrders, `must hold at most ${SHAPE_LIMITS.strategyOrders} strategy ids`),
  )),
});
export type CopyStrategiesBody = v.InferOutput<typeof CopyStrategiesSchema>;
