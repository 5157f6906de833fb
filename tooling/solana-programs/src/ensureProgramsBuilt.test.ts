import path from 'node:path';
import { sourceFolders } from './ensureProgramsBuilt';
import { programSource } from './programPaths';

// A program built on another (`#include "../<name>/…"`) is stale when that one's source changes.

const folder = (name: Parameters<typeof programSource>[0]) => path.dirname(programSource(name));

it('counts the folders of the programs a program includes as its sources', () => {
  expect(sourceFolders('klend_skimming')).toEqual([
    folder('klend_skimming'),
    folder('klend_standin'),
  ]);
  expect(sourceFolders('klend_standin')).toEqual([folder('klend_standin')]);
});
