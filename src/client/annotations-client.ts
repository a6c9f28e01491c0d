/** The user-data routes (src/api/routes/annotations.ts) for the CLI and scripts, typed from the API's description. */
import type { ApiClient } from './api-client.js';
import type { components } from './api-schema.gen.js';

type Schemas = components['schemas'];
export type Annotation = Schemas['Annotation'];
export type ForgetResult = Schemas['ForgetResult'];

export const annotationsApi = ({ api }: ApiClient) => {
  const at = (id: string) => ({ path: { id } });
  return {
    get: (id: string) => api.GET('/api/sessions/{id}/annotations', { params: at(id) }),
    star: (id: string) => api.PUT('/api/sessions/{id}/star', { params: at(id) }),
    unstar: (id: string) => api.DELETE('/api/sessions/{id}/star', { params: at(id) }),
    tags: (id: string, change: { add?: string[]; remove?: string[] }) =>
      api.PATCH('/api/sessions/{id}/tags', { params: at(id), body: change }),
    note: (id: string, note: string, rev?: string | null) =>
      api.PUT('/api/sessions/{id}/note', {
        params: at(id),
        body: rev === undefined ? { note } : { note, rev },
      }),
    clearNote: (id: string) => api.DELETE('/api/sessions/{id}/note', { params: at(id) }),
    forget: (id: string) => api.POST('/api/sessions/{id}/forget', { params: at(id) }),
    forgotten: () => api.GET('/api/forgotten'),
    unforget: (id: string) => api.DELETE('/api/forgotten/{id}', { params: at(id) }),
  };
};
