/**
 * The demo catalogues' data: the entries are data, kept in the JSON files beside this module, and checked here
 * against their schemas when the module loads, so a slip in an entry fails the start naming the file and the place.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { AppJobTemplate } from '@hpc/contracts';
import appsJson from './apps.json';
import dictionaryJson from './dictionary.json';
import imagesJson from './images.json';
import modelsJson from './models.json';

/** The value, typed, if it fits the schema; else an error naming the file and the first place that does not. */
export function parseSeed<T extends TSchema>(schema: T, value: unknown, file: string): Static<T> {
  const [first] = Value.Errors(schema, value);
  if (first) throw new Error(`catalogue seed ${file}${first.instancePath}: ${first.message}`);
  return value as Static<T>;
}

const Strings = Type.Array(Type.String());
const Icon = Type.Union([Type.String(), Type.Null()]);

/** The fields every demo entry has. */
const entryFields = {
  key: Type.String({ minLength: 1 }),
  name: Type.String(),
  nameZh: Type.String(),
  category: Type.String(),
  icon: Icon,
  labels: Strings,
  zh: Type.String(),
  en: Type.String(),
};

/** The fields of an entry that is one card of its own (a model, an application). */
const cardFields = {
  ...entryFields,
  /** Version or size shown as the card's tag. */
  tag: Type.String(),
  date: Type.String(),
  downloads: Type.Integer({ minimum: 0 }),
};

const Accelerator = Type.Union([Type.Literal('GPU'), Type.Literal('DCU'), Type.Literal('CPU')]);

/** One released build of an image family: [tag, accelerator, release date, downloads, extra labels]. */
const ImageVariant = Type.Tuple([Type.String(), Accelerator, Type.String(), Type.Integer(), Strings]);
export type ImageVariant = Static<typeof ImageVariant>;

const ImageFamily = Type.Object({
  ...entryFields,
  /** Repository in the centre's registry; the image name is `repo:tag`. */
  repo: Type.String(),
  homepage: Type.String(),
  variants: Type.Array(ImageVariant, { minItems: 1 }),
  /** How the family is checked and run inside the job (python snippets for the AI stacks); a default otherwise. */
  check: Type.Optional(
    Type.Object({
      lang: Type.Union([Type.Literal('python'), Type.Literal('bash')]),
      code: Type.String(),
      run: Type.String(),
    }),
  ),
});
export type ImageFamily = Static<typeof ImageFamily>;

const ModelEntry = Type.Object({
  ...cardFields,
  homepage: Type.String(),
  /** The image family to run it in (its markdown links to that image's detail page). */
  runsIn: Type.String(),
});
export type ModelEntry = Static<typeof ModelEntry>;

const AppEntry = Type.Object({
  ...cardFields,
  /** Where it is launched (an internal route) or documented (an external URL). */
  url: Type.String(),
  /** Its ready job ("run this application" opens the Job page's form with it), for batch applications. */
  job: Type.Optional(AppJobTemplate),
});
export type AppEntry = Static<typeof AppEntry>;

/** [value, 中文, English] */
const Term = Type.Tuple([Type.String(), Type.String(), Type.String()]);
export type Term = Static<typeof Term>;
const PerKind = <T extends TSchema>(of: T) => Type.Object({ image: of, model: of, app: of });

const Dictionary = Type.Object({
  accelerators: Type.Array(Term),
  categories: PerKind(Type.Array(Term)),
  /** Label groups per kind: [group, 中文, English, labels]. Label values are unique within a kind. */
  labelGroups: PerKind(
    Type.Array(Type.Tuple([Type.String(), Type.String(), Type.String(), Type.Array(Term)])),
  ),
});

/** The demo image centre: families of builds as an HPC centre publishes them (DCU builds are the DTK/ROCm ones). */
export const IMAGE_FAMILIES: readonly ImageFamily[] = parseSeed(
  Type.Array(ImageFamily),
  imagesJson,
  'images.json',
);

/** The demo model zoo: weights kept on the centre's shared storage, each with the image it runs in. */
export const MODELS: readonly ModelEntry[] = parseSeed(Type.Array(ModelEntry), modelsJson, 'models.json');

/**
 * The demo application centre: interactive applications the centre launches on compute nodes, and batch ones with
 * a ready job. A job's script is kept as its lines (JSON has no multi-line strings). The Python batch job runs as it
 * is on the one-machine cluster of `npm run start:cluster` (python3 of the system, one CPU).
 */
export const APPS: readonly AppEntry[] = parseSeed(
  Type.Array(AppEntry),
  appsJson.map((a) => (a.job ? { ...a, job: { ...a.job, script: a.job.script.join('\n') } } : a)),
  'apps.json',
);

const dictionary = parseSeed(Dictionary, dictionaryJson, 'dictionary.json');
export const ACCELERATORS: readonly Term[] = dictionary.accelerators;
export const CATEGORIES = dictionary.categories;
export const LABEL_GROUPS = dictionary.labelGroups;
