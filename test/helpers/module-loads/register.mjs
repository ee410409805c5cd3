// `node --import` this file to have the child process print `loaded URL` on stderr for every module it loads:
// how the laziness tests see which modules a command pulled in, without timing anything.
import { register } from 'node:module';

register(new URL('./hooks.mjs', import.meta.url));
