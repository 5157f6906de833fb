import { writeFileSync } from 'node:fs';
import { CONFIGURATION_DOC_PATH, formatConfigurationDoc } from '../docs/formatConfigurationDoc';

// `pnpm docs:config`: rewrites docs/configuration.md from the settings schemas.
writeFileSync(CONFIGURATION_DOC_PATH, formatConfigurationDoc());
process.stdout.write(`wrote ${CONFIGURATION_DOC_PATH}\n`);
