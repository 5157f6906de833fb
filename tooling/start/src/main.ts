import { launchServices, servicesFor } from './launchServices';

// `pnpm start`. SIGINT / SIGTERM are passed on; the launcher exits when every service has.
const launched = launchServices(servicesFor(process.env), process.env);
process.on('SIGINT', () => launched.stop('SIGINT'));
process.on('SIGTERM', () => launched.stop('SIGTERM'));
void launched.exited.then((code) => process.exit(code));
