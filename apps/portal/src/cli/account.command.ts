import type { AccountStatus, MemberType } from '@hpc/contracts';
import { UsageError, arg, opt, parseAmount, parseEndTime, type Command, type ParsedArgs } from './command';

const status = (text: string): AccountStatus => {
  if (text !== 'Normal' && text !== 'Disable') throw new UsageError('the status is Normal or Disable');
  return text;
};
const memberType = (text: string): MemberType => {
  if (text !== 'admin' && text !== 'member') throw new UsageError('the member type is admin or member');
  return text;
};

/** The options `account add` and `account set` share; an option not given is left undefined. */
function accountFields(args: ParsedArgs) {
  const s = opt(args, 'status');
  const b = opt(args, 'balance');
  const e = opt(args, 'end');
  return {
    status: s ? status(s) : undefined,
    balance: b ? parseAmount(b) : undefined,
    endUseTime: e ? parseEndTime(e) : undefined,
  };
}

export const accountCommands: Command[] = [
  {
    name: 'account add',
    usage:
      'account add <accountId> --name N [--status Normal|Disable] [--balance 1000.00] [--end YYYY-MM-DD|none]',
    summary: 'create an account',
    valueOptions: ['name', 'status', 'balance', 'end'],
    async run({ services, out }, args) {
      const accountId = arg(args, 0, 'accountId');
      const name = opt(args, 'name');
      if (!name) throw new UsageError('give --name');
      const { endUseTime, ...fields } = accountFields(args);
      await services.accounts.add({ accountId, name, ...fields, endUseTime: endUseTime ?? null });
      out(`account ${accountId} created`);
    },
  },
  {
    name: 'account set',
    usage:
      'account set <accountId> [--name N] [--status Normal|Disable] [--balance 1000.00] [--end YYYY-MM-DD|none]',
    summary: 'create the account (--name required then) or change the given fields, all in one transaction',
    valueOptions: ['name', 'status', 'balance', 'end'],
    async run({ services, out }, args) {
      const accountId = arg(args, 0, 'accountId');
      // The admin page's POST /api/admin/accounts: the same service method.
      await services.accounts.save({ accountId, name: opt(args, 'name'), ...accountFields(args) });
      out(`account ${accountId} saved`);
    },
  },
  {
    name: 'account set-status',
    usage: 'account set-status <accountId> <Normal|Disable>',
    summary: 'enable or disable an account (a disabled account blocks file operations on its clusters)',
    async run({ services, out }, args) {
      await services.accounts.setStatus(arg(args, 0, 'accountId'), status(arg(args, 1, 'status')));
      out('status set');
    },
  },
  {
    name: 'account set-balance',
    usage: 'account set-balance <accountId> <amount>',
    summary: "set an account's balance in yuan",
    async run({ services, out }, args) {
      await services.accounts.setBalance(arg(args, 0, 'accountId'), parseAmount(arg(args, 1, 'amount')));
      out('balance set');
    },
  },
  {
    name: 'account set-end',
    usage: 'account set-end <accountId> <YYYY-MM-DD|ISO time|none>',
    summary: "set an account's end of use",
    async run({ services, out }, args) {
      await services.accounts.setEndTime(arg(args, 0, 'accountId'), parseEndTime(arg(args, 1, 'end')));
      out('end set');
    },
  },
  {
    name: 'account rename',
    usage: 'account rename <accountId> <name>',
    summary: 'rename an account',
    async run({ services, out }, args) {
      await services.accounts.rename(arg(args, 0, 'accountId'), arg(args, 1, 'name'));
      out('renamed');
    },
  },
  {
    name: 'account list',
    usage: 'account list',
    summary: 'list the accounts',
    async run({ services }) {
      console.table(await services.accounts.list());
    },
  },
  {
    name: 'group add',
    usage: 'group add <groupId> [--name N]',
    summary: 'create a user group (members join it through `member add --group`)',
    valueOptions: ['name'],
    async run({ services, out }, args) {
      const groupId = arg(args, 0, 'groupId');
      await services.accounts.addGroup(groupId, opt(args, 'name') ?? groupId);
      out(`group ${groupId} created`);
    },
  },
  {
    name: 'group list',
    usage: 'group list',
    summary: 'list the user groups',
    async run({ services }) {
      console.table(await services.accounts.listGroups());
    },
  },
  {
    name: 'member add',
    usage: 'member add <accountId> <username> [--type admin|member] [--group groupId]',
    summary: 'make a user a member of an account (or change their type and group)',
    valueOptions: ['type', 'group'],
    async run({ services, out }, args) {
      const t = opt(args, 'type');
      await services.accounts.setMember({
        accountId: arg(args, 0, 'accountId'),
        username: arg(args, 1, 'username'),
        memberType: t ? memberType(t) : undefined,
        groupId: opt(args, 'group'),
      });
      out('member set');
    },
  },
  {
    name: 'member remove',
    usage: 'member remove <accountId> <username>',
    summary: 'remove a user from an account',
    async run({ services, out }, args) {
      await services.accounts.removeMember(arg(args, 0, 'accountId'), arg(args, 1, 'username'));
      out('member removed');
    },
  },
];
