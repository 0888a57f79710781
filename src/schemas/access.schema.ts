/**
 * Bodies of the user, token and membership routes (docs/api-decisions.md "Projects,
 * environments, users, roles, tokens").
 */
import * as v from 'valibot';
import {
  EnvironmentOrAllSchema,
  identifier,
  IsoDateSchema,
  ProjectIdOrAllSchema,
  strictBoolean,
  integerIn,
  looseObject,
  nonEmptyString,
  strictObject,
} from './common.schema.js';
import { mustBe } from './messages.js';

/** Root roles by name, as Unleash also accepts them (`"Admin"`). */
const ROOT_ROLE_IDS = { Admin: 1, Editor: 2, Viewer: 3 } as const;
const ROOT_ROLE_NAMES = Object.keys(ROOT_ROLE_IDS) as (keyof typeof ROOT_ROLE_IDS)[];

/** A root role: its id 1 to 3, or its name; output is the id. */
const RootRoleSchema = v.union(
  [
    integerIn(1, 3),
    v.pipe(v.picklist(ROOT_ROLE_NAMES), v.transform((name) => ROOT_ROLE_IDS[name])),
  ],
  (issue) =>
    typeof issue.input === 'number'
      ? `must be a root role id from 1 to 3, got ${issue.received}`
      : `must be 1, 2, 3 or one of ${ROOT_ROLE_NAMES.join(', ')}, got ${issue.received}`,
);

/**
 * Body of `POST /api/admin/user-admin`: `email` or `username` (at least one),
 * `name`, `rootRole` (default 3, Viewer). `sendEmail`, which Unleash clients
 * send, is accepted and ignored: this service sends no mail.
 *
 * @example v.parse(CreateUserSchema, { email: 'a@example.com' }) // { email: 'a@example.com', rootRole: 3 }
 */
/** A password as sent: a string of at most 256 characters (`src/auth/passwords.ts` checks the rest). */
const PasswordSchema = v.pipe(v.string(mustBe('a string')), v.maxLength(256, 'must be at most 256 characters'));

/** Body of `POST /api/admin/user-admin/:userId/change-password` (Unleash's): the user's new password. */
export const SetPasswordSchema = strictObject({ password: PasswordSchema });

/**
 * Body of `POST /api/admin/user/change-password` (Unleash's `passwordSchema`): the caller's new password, twice,
 * and `oldPassword`, their current one (required when they have one: a leaked token must not set a password).
 */
export const ChangeOwnPasswordSchema = v.pipe(
  strictObject({ password: PasswordSchema, confirmPassword: PasswordSchema, oldPassword: v.optional(PasswordSchema) }),
  v.forward(v.check((b) => b.password === b.confirmPassword, 'must be the same as password'), ['confirmPassword']),
);

export const CreateUserSchema = v.pipe(
  strictObject({
    email: v.optional(
      v.pipe(
        v.string(mustBe('a string')),
        v.maxLength(255, 'must be at most 255 characters'),
        v.rfcEmail('must be a valid email address'),
      ),
    ),
    name: v.optional(nonEmptyString(100)),
    username: v.optional(identifier(100)),
    rootRole: v.optional(RootRoleSchema, 3),
    sendEmail: v.optional(strictBoolean()),
    /** The user's first password; its policy (length, not the username, not a common one) is the use case's. */
    password: v.optional(PasswordSchema),
  }),
  v.forward(
    v.check((u) => u.email !== undefined || u.username !== undefined, 'is required when no username is given'),
    ['email'],
  ),
  v.transform(({ sendEmail: _ignored, ...user }) => user),
);
export type CreateUser = v.InferOutput<typeof CreateUserSchema>;

/**
 * Body of `PUT /api/admin/user-admin/:userId` (Unleash's): what changes of `name`, `email` and `rootRole`; a field
 * left out stays, `null` clears a name or email.
 *
 * @example v.parse(UpdateUserSchema, { rootRole: 'Editor' }) // { rootRole: 2 }
 */
export const UpdateUserSchema = strictObject({
  email: v.optional(v.nullable(v.pipe(v.string(mustBe('a string')), v.maxLength(255, 'must be at most 255 characters'), v.rfcEmail('must be a valid email address')))),
  name: v.optional(v.nullable(nonEmptyString(100))),
  rootRole: v.optional(RootRoleSchema),
});
export type UpdateUser = v.InferOutput<typeof UpdateUserSchema>;

/** `backend` is Unleash's other name of a client token; it is stored as `client`. */
const TOKEN_TYPES = ['admin', 'client', 'backend', 'frontend'] as const;

/**
 * Body of `POST /api/admin/api-tokens`. `type` is case-insensitive;
 * `project` is an alias of a one-entry `projects`, and `username` (Unleash 4)
 * of `tokenName`, `backend` of `client`. `projects` defaults to `['*']`; an
 * admin token is never narrowed, so it keeps both at `*`; a client token names
 * one environment (`*` is refused; absent: `development`).
 *
 * @example v.parse(CreateApiTokenSchema, { tokenName: 'sdk', type: 'CLIENT', project: 'web', environment: 'production' })
 * // { tokenName: 'sdk', type: 'client', projects: ['web'], environment: 'production' }
 */
export const CreateApiTokenSchema = v.pipe(
  strictObject({
    tokenName: v.optional(identifier(100)),
    username: v.optional(identifier(100)),
    type: v.pipe(
      v.string(mustBe('a string')),
      v.toLowerCase(),
      v.picklist(TOKEN_TYPES, (issue) => `must be admin, client (or backend) or frontend, got ${issue.received}`),
    ),
    projects: v.optional(
      v.pipe(
        v.array(ProjectIdOrAllSchema, mustBe('an array of project ids')),
        v.minLength(1, 'must hold at least one project id'),
        v.maxLength(1000, 'must hold at most 1000 project ids'),
      ),
    ),
    project: v.optional(ProjectIdOrAllSchema),
    environment: v.optional(EnvironmentOrAllSchema),
    expiresAt: v.optional(IsoDateSchema),
  }),
  v.forward(
    v.check((t) => t.tokenName !== undefined || t.username !== undefined, 'is required'),
    ['tokenName'],
  ),
  v.forward(
    v.check((t) => t.project === undefined || t.projects === undefined, 'cannot be given together with "projects"'),
    ['project'],
  ),
  v.forward(
    v.check((t) => !t.projects?.includes('*') || t.projects.length === 1, 'must be ["*"] alone when it holds "*"'),
    ['projects'],
  ),
  v.forward(
    v.check(
      (t) => t.type !== 'admin' || (t.projects ?? [t.project ?? '*']).every((p) => p === '*'),
      'must be ["*"] for an admin token',
    ),
    ['projects'],
  ),
  v.forward(
    v.check((t) => t.type !== 'admin' || t.environment === undefined || t.environment === '*', 'must be "*" for an admin token'),
    ['environment'],
  ),
  v.forward(
    v.check((t) => (t.type !== 'client' && t.type !== 'backend') || t.environment !== '*', 'must name one environment for a client token, not "*" (as Unleash 6.10)'),
    ['environment'],
  ),
  v.forward(
    v.check((t) => t.type !== 'frontend' || (t.environment !== undefined && t.environment !== '*'), 'must name one environment for a frontend token'),
    ['environment'],
  ),
  v.transform((t) => ({
    tokenName: (t.tokenName ?? t.username) as string,
    type: t.type === 'backend' ? ('client' as const) : t.type,
    projects: t.projects ?? [t.project ?? '*'],
    // A client token names one environment; without one it gets `development` (Unleash's `default` is not seeded here).
    environment: t.environment ?? (t.type === 'admin' ? '*' : 'development'),
    ...(t.expiresAt === undefined ? {} : { expiresAt: t.expiresAt }),
  })),
);
export type CreateApiToken = v.InferOutput<typeof CreateApiTokenSchema>;

/** Body of `POST /api/admin/user-admin/:userId/tokens`. */
export const CreatePersonalTokenSchema = strictObject({
  description: identifier(100),
  expiresAt: v.optional(IsoDateSchema),
});
export type CreatePersonalToken = v.InferOutput<typeof CreatePersonalTokenSchema>;

/**
 * Optional body of the membership routes (docs/admin-contract.md §4.17 to §4.19): its example
 * repeats `userId`, `projectId` and `roleId`; the path is what counts, so the
 * body is accepted whatever its fields and ignored.
 */
export const MembershipBodySchema = v.optional(
  looseObject({
    userId: v.optional(v.unknown()),
    projectId: v.optional(v.unknown()),
    roleId: v.optional(v.unknown()),
  }),
);
export type MembershipBody = v.InferOutput<typeof MembershipBodySchema>;
