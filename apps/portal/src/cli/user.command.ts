import type { UserRole } from '@hpc/contracts';
import { toAdminUser } from '../features/identity';
import { UsageError, arg, opt, readPassword, type Command } from './command';

const role = (text: string): UserRole => {
  if (text !== 'manager' && text !== 'user') throw new UsageError('the role is manager or user');
  return text;
};

/** `user disable <username>` and `user enable <username>`: the user's status. */
const statusCommand = (verb: 'disable' | 'enable', summary: string): Command => ({
  name: `user ${verb}`,
  usage: `user ${verb} <username>`,
  summary,
  async run({ services, out }, args) {
    await services.users.setStatus(arg(args, 0, 'username'), verb === 'disable' ? 'disabled' : 'active');
    out(`${verb}d`);
  },
});

export const userCommands: Command[] = [
  {
    name: 'user add',
    usage: 'user add <username> [--password P | --password-stdin] [--full-name N] [--email E] [--manager]',
    summary: 'create a portal user (without a password: single sign-on only)',
    valueOptions: ['password', 'full-name', 'email'],
    flagOptions: ['password-stdin', 'manager'],
    async run({ services, out }, args) {
      const username = arg(args, 0, 'username');
      const user = await services.users.add({
        username,
        password: await readPassword(args),
        fullName: opt(args, 'full-name'),
        email: opt(args, 'email'),
        role: args.options.manager ? 'manager' : 'user',
      });
      out(`user ${user.username} created (id ${user.id}, ${user.role})`);
    },
  },
  {
    name: 'user passwd',
    usage: 'user passwd <username> (--password P | --password-stdin)',
    summary: "set a user's password (ends their sessions)",
    valueOptions: ['password'],
    flagOptions: ['password-stdin'],
    async run({ services, out }, args) {
      const username = arg(args, 0, 'username');
      const password = await readPassword(args);
      if (!password) throw new UsageError('give --password or --password-stdin');
      await services.users.setPassword(username, password);
      out(`password of ${username} changed`);
    },
  },
  {
    name: 'user set',
    usage: 'user set <username> [--full-name N] [--email E] [--role manager|user]',
    summary: "change a user's name, e-mail or role",
    valueOptions: ['full-name', 'email', 'role'],
    async run({ services, out }, args) {
      const username = arg(args, 0, 'username');
      const r = opt(args, 'role');
      // One transaction, the same as the admin page's user update: all of the changes or none.
      await services.users.updateUser(username, {
        fullName: opt(args, 'full-name'),
        email: opt(args, 'email'),
        role: r ? role(r) : undefined,
      });
      out(`user ${username} updated`);
    },
  },
  statusCommand('disable', 'refuse further logins and end the sessions of a user'),
  statusCommand('enable', 'allow a disabled user to log in again'),
  {
    name: 'user link-sso',
    usage: 'user link-sso <username> --subject SUB [--issuer URL]',
    summary:
      'make single sign-on of this OpenID subject log in as this user (issuer defaults to OIDC_ISSUER)',
    valueOptions: ['subject', 'issuer'],
    async run({ services, config, out }, args) {
      const username = arg(args, 0, 'username');
      const subject = opt(args, 'subject');
      const issuer = opt(args, 'issuer') ?? config.OIDC_ISSUER;
      if (!subject || !issuer)
        throw new UsageError('give --subject (and --issuer when OIDC_ISSUER is not set)');
      await services.users.linkOidc(username, { issuer, subject });
      out(`${username} linked to ${subject} at ${issuer}`);
    },
  },
  {
    name: 'user logout',
    usage: 'user logout <username>',
    summary: 'end every session of a user',
    async run({ services, out }, args) {
      const user = await services.users.get(arg(args, 0, 'username'));
      out(`${await services.sessions.revokeUser(user.id)} session(s) ended`);
    },
  },
  {
    name: 'user list',
    usage: 'user list',
    summary: 'list the users',
    async run({ services }) {
      console.table((await services.users.list()).map(toAdminUser));
    },
  },
];
