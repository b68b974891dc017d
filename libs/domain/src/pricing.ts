import type { SkuLineItem } from './charge/charge.events';

/**
 * The one price table (API.md "Credits"). Every charge is built here from a SKU and a quantity;
 * nothing else writes a price. `per` groups units: `sku_contents_text` costs one credit per ten
 * rows, rounded up.
 */
export const PRICES = {
  sku_search: { credits: 1, per: 1 },
  sku_objective_rerank: { credits: 1, per: 1 },
  sku_contents_text: { credits: 1, per: 10 },
  sku_extract: { credits: 2, per: 1 },
  sku_deep_search: { credits: 1, per: 1 },
  sku_task_step: { credits: 1, per: 1 },
  sku_chat_step: { credits: 1, per: 1 },
  sku_findall_query: { credits: 1, per: 1 },
  sku_findall_match: { credits: 1, per: 1 },
  sku_findall_enrich: { credits: 1, per: 1 },
  sku_monitor_run: { credits: 1, per: 1 },
  sku_map: { credits: 1, per: 1 },
  // A crawled page costs what an extracted one does.
  sku_crawl_page: { credits: 2, per: 1 },
  // One page rendered in the headless browser, wherever (extract, crawl, research, monitors), a render that ran to its deadline included.
  sku_render: { credits: 1, per: 1 },
} as const satisfies Record<string, { credits: number; per: number }>;

export type Sku = keyof typeof PRICES;

/** One line item: `quantity` units of `sku` at the table's price. */
export const lineItem = (sku: Sku, quantity: number): SkuLineItem => {
  const price = PRICES[sku];
  return { sku, quantity, credits: Math.ceil(quantity / price.per) * price.credits };
};

/** Line items with a zero quantity are left out: nothing was used. */
export const lineItems = (quantities: Partial<Record<Sku, number>>): SkuLineItem[] =>
  (Object.entries(quantities) as [Sku, number][])
    .filter(([, quantity]) => quantity > 0)
    .map(([sku, quantity]) => lineItem(sku, quantity));

export const totalCredits = (items: readonly SkuLineItem[]): number =>
  items.reduce((sum, item) => sum + item.credits, 0);

/** Units of one SKU among line items (the renders a read reports, `sku_render`). */
export const quantityOf = (items: readonly SkuLineItem[], sku: Sku): number =>
  items.reduce((sum, item) => (item.sku === sku ? sum + item.quantity : sum), 0);
