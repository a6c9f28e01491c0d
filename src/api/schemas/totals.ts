/** Wire schema of `GET /api/totals`: the tokens of the sessions a filter selects, and their cost. */
import { z } from '@hono/zod-openapi';
import { tokenUsageSchema } from '../../core/documents.js';

export const totalsSchema = z
  .object({
    sessions: z.number().openapi({ description: 'sessions the filters select' }),
    tokens: tokenUsageSchema,
    usd: z.number().nullable().openapi({
      description: 'US dollars for the tokens that have a price; null when there are tokens and none has one',
    }),
    complete: z.boolean().openapi({
      description:
        'whether every token was priced (false: some model has no price, or some split is unknown)',
    }),
    byModel: z
      .array(
        z.object({
          model: z.string().nullable().openapi({
            description:
              'null: the tokens of sessions summarised before they were split by model that used several',
          }),
          sessions: z.number().openapi({ description: 'of the selected sessions, those it wrote in' }),
          tokens: tokenUsageSchema,
          usd: z.number().nullable().openapi({ description: 'null: no price for this model' }),
        }),
      )
      .openapi({ description: 'most tokens first' }),
  })
  .openapi('Totals', {
    description:
      'the tokens at list prices, as each session prices them (`Session.cost`): an estimate, not the bill',
  });
export type Totals = z.infer<typeof totalsSchema>;
