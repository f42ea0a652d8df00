import { createSigningKey, listSigningKeys, retireSigningKey, signingKeysDir } from '../keys/signing-keys';
import { arg, type Command } from './command';

export const keyCommands: Command[] = [
  {
    name: 'keys list',
    usage: 'keys list',
    summary: 'list the token signing keys (the last one signs)',
    noDatabase: true,
    async run({ config, out }) {
      const kids = listSigningKeys(signingKeysDir(config));
      kids.forEach((kid, i) => out(`${kid}${i === kids.length - 1 ? '\t(active)' : ''}`));
    },
  },
  {
    name: 'keys rotate',
    usage: 'keys rotate',
    summary: 'create a new signing key; it signs from now on (running portals pick it up within a minute)',
    noDatabase: true,
    async run({ config, out }) {
      out(`new key ${createSigningKey(signingKeysDir(config))}`);
    },
  },
  {
    name: 'keys retire',
    usage: 'keys retire <kid>',
    summary: 'delete an old key: tokens it signed stop verifying (wait 12 h after a rotation)',
    noDatabase: true,
    async run({ config, out }, args) {
      const kid = arg(args, 0, 'kid');
      retireSigningKey(signingKeysDir(config), kid);
      out(`key ${kid} retired`);
    },
  },
];
