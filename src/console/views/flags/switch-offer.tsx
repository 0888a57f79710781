/** @jsxImportSource hono/jsx */
/**
 * The offer a switch comes back with when switching on would serve the flag to no one: add a strategy (the
 * project's default strategy for the environment, else a 100% rollout) and switch on, or enable the disabled
 * strategies, or cancel. The flag table shows it under the row (sent again by htmx), the flag page under the
 * environment's switch; the words and the fields it sends are the same (`SwitchForm`).
 */
import type { Child } from 'hono/jsx';
import type { SwitchOffer as Offer } from '../../../queries/switch-offer.query.js';
import { Csrf } from '../form-parts.js';

export interface SwitchOfferProps {
  flag: string;
  offer: Offer;
  /** Where the switch posts. */
  action: string;
  /** The version the page shows (`ETag`): the switch is refused if the flag changed since. */
  ifMatch: string;
  /** The table's address a form sent without script returns to (the flag table only). */
  back?: string | undefined;
  /** htmx attributes of the form (the flag table swaps its row). */
  hx?: Record<string, string> | undefined;
  /** The Cancel link. */
  cancel: Child;
  /** A sentence after what the flag will get (the table points to the flag's page). */
  more?: Child;
}

/** The offer, as a group named by its first sentence; the keyboard lands on its first choice. */
export function SwitchOffer({ flag, offer, action, ifMatch, back, hx, cancel, more }: SwitchOfferProps) {
  const id = `offer-${flag}--${offer.environment}`;
  const strategy = offer.defaultStrategy === null ? 'a gradual rollout to 100% of users (the standard strategy)' : `the project's default strategy for ${offer.environment} (${offer.defaultStrategy})`;
  return (
    <div class="offer" role="group" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`} class="offer-title" role="status">
        <strong>{flag}</strong> has no enabled strategy in <strong>{offer.environment}</strong>, so switching it on would serve it to no one.
      </p>
      <form method="post" action={action} class="offer-actions" {...hx}>
        <Csrf ifMatch={ifMatch} />
        {back !== undefined ? <input type="hidden" name="back" value={back} /> : null}
        <input type="hidden" name="enabled" value="on" />
        <button type="submit" name="with" value="strategy" class="button button-primary button-small" autofocus>{`Add ${offer.defaultStrategy === null ? 'a 100% rollout' : 'the default strategy'} and switch on`}</button>
        {offer.disabledStrategies > 0
          ? <button type="submit" name="with" value="disabled" class="button button-small">{`Enable its ${offer.disabledStrategies} disabled ${offer.disabledStrategies === 1 ? 'strategy' : 'strategies'}`}</button>
          : null}
        {cancel}
      </form>
      <p class="hint">It will get {strategy}.{more ? <> {more}</> : null}</p>
    </div>
  );
}
