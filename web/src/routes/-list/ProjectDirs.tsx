/**
 * Under the chips, what a `project` filter stands for: the project name the API is asked (a
 * typed `hap` is `happy`) and the directories so named, from the `cwd` facet values.
 */
import { Text } from '@mantine/core';
import { projectDirs, resolveProject, type FacetValue } from '../../lib/facet-match.js';

export function ProjectDirs({ project, cwds }: { project?: string; cwds?: readonly FacetValue[] }) {
  if (!project || !cwds) return null;
  const name = resolveProject(project, cwds).value;
  if (name === undefined)
    return (
      <Text size="xs" c="dimmed" data-testid="project-dirs">
        No directory&apos;s name is or contains “{project}”.
      </Text>
    );
  const dirs = projectDirs(name, cwds);
  return (
    <Text size="xs" c="dimmed" data-testid="project-dirs">
      {`project “${project}”${name === project ? '' : ` → “${name}”`}: ${
        dirs.length === 1 ? 'the directory' : `${dirs.length} directories`
      } ${dirs.join(', ')}`}
    </Text>
  );
}
