/** The user-data routes (src/api/routes/annotations.ts) for the CLI and scripts, typed from the API's description. */
import type { ApiClient } from './api-client.js';
import type { components } from './api-schema.gen.js';

type Schemas = components['schemas'];
export type Annotation = Schemas['Annotation'];
export type ForgetResult = Schemas['ForgetResult'];

const session = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;

export const annotationsApi = (client: ApiClient) => ({
  get: (id: string) => client.request<Annotation>('GET', `${session(id)}/annotations`),
  star: (id: string) => client.request<Annotation>('PUT', `${session(id)}/star`, { json: {} }),
  unstar: (id: string) => client.request<Annotation>('DELETE', `${session(id)}/star`),
  tags: (id: string, change: { add?: string[]; remove?: string[] }) =>
    client.request<Annotation>('PATCH', `${session(id)}/tags`, { json: change }),
  note: (id: string, note: string, rev?: string | null) =>
    client.request<Annotation>('PUT', `${session(id)}/note`, {
      json: rev === undefined ? { note } : { note, rev },
    }),
  clearNote: (id: string) => client.request<Annotation>('DELETE', `${session(id)}/note`),
  forget: (id: string) => client.request<ForgetResult>('POST', `${session(id)}/forget`, { json: {} }),
  forgotten: () => client.request<Schemas['ForgottenList']>('GET', '/api/forgotten'),
  unforget: (id: string) =>
    client.request<Schemas['UnforgetResult']>('DELETE', `/api/forgotten/${encodeURIComponent(id)}`),
});
