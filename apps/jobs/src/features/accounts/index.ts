// The account rules of the job service, for the features that charge an account (submit, release).
export {
  accountsOf,
  checkAccount,
  checkUsable,
  deactivated,
  rightsNow,
  slurmAccountOf,
} from './account-rules';
