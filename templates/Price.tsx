import type { PriceText } from './model.ts';
import { T } from './Text.tsx';

/** An amount, what it is charged per ("per month"), and a note in small print. */
export function Price({ price }: { price: PriceText }) {
  return (
    <span className="price">
      <T value={price.amount} as="strong" />
      {price.per ? (
        <>
          {' '}
          <T value={price.per} />
        </>
      ) : null}
      {price.note ? (
        <>
          {' '}
          <T value={price.note} as="small" />
        </>
      ) : null}
    </span>
  );
}
