/** Under the chips, what a `project` filter stands for: the directories whose sessions are listed. */
import { Text } from '@mantine/core';

export function ProjectDirs({ project, dirs }: { project?: string; dirs?: string[] }) {
  if (!project || !dirs) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="project-dirs">
      {dirs.length === 0
        ? `No directory's name is or contains “${project}”.`
        : `project “${project}”: ${dirs.length === 1 ? 'the directory' : `${dirs.length} directories`} ${dirs.join(', ')}`}
    </Text>
  );
}
