/** The user-data routes (src/api/routes/annotations.ts) for the CLI and scripts. */
import type { ApiClient } from './api-client.js';

export interface Annotation {
  sessionId: string;
  rev: string | null;
  starred: boolean;
  tags: string[];
  note: string;
  bookmarks: Array<{ file: string; index: number; note?: string; at: string }>;
  updatedAt: string | null;
}

export interface ForgetResult {
  sessionId: string;
  tombstoned: boolean;
  documents: number;
  objects: number;
}

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
  forgotten: () =>
    client.request<{ total: number; forgotten: Array<{ sessionId: string; forgottenAt: string }> }>(
      'GET',
      '/api/forgotten',
    ),
  unforget: (id: string) =>
    client.request<{ sessionId: string; lifted: boolean }>(
      'DELETE',
      `/api/forgotten/${encodeURIComponent(id)}`,
    ),
});
