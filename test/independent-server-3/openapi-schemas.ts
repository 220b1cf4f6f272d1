// components.schemas of the OpenAPI document: exactly the shapes this server sends and accepts.
import { WIDGET_TYPES } from './dashboard.js';
import { anyObj, arr, bool, cursorList, dt, en, int, num, nullable, obj, ref, str } from './openapi-util.js';
import type { S } from './openapi-util.js';

const BPS = ['lg', 'md', 'sm', 'xs', 'xxs'];
const bpObj = (s: S): S => obj([], Object.fromEntries(BPS.map((b) => [b, s])));
const dateOrDt: S = { type: 'string', anyOf: [{ format: 'date' }, { format: 'date-time' }], description: 'date or date-time' };
const itemType = en(['FOLDER', 'WORKBOOK', 'REPORT']);

export function schemas(): Record<string, S> {
  return {
    Error: obj(['error', 'code'], {
      error: str({ description: 'Human-readable message.' }),
      code: str({ description: 'Machine code, e.g. validation_failed, not_found, upsert_branch_changed.' }),
      allowed: arr(str(), { description: 'Only on 405: methods allowed on the path.' }),
    }),
    PageInfo: obj(['hasNextPage', 'hasPreviousPage'], {
      hasNextPage: bool(), hasPreviousPage: bool(),
      startCursor: str({ description: 'Left out when the page is empty.' }), endCursor: str({ description: 'Left out when the page is empty.' }),
    }),
    OffsetPagination: obj(['offset', 'limit', 'total'], { offset: int({ minimum: 0 }), limit: int({ minimum: 0 }), total: int({ minimum: 0 }) }),
    Deployment: obj(['id', 'name', 'created_at'], { id: str({ pattern: '^[0-9]+$' }), name: str(), created_at: dt() }),
    DeploymentsList: obj(['data', 'pagination'], { data: obj(['deployments'], { deployments: arr(ref('Deployment')) }), pagination: ref('OffsetPagination') }),
    ApiCredential: obj(['type', 'version', 'database', 'host', 'port', 'url'], { type: en(['rest', 'sql']), version: int(), database: str(), host: str(), port: int(), url: str() }),
    Environment: obj(['id', 'type', 'branch', 'api_credentials'], {
      id: str(), type: en(['production', 'staging', 'development']), branch: str(),
      user: str({ description: 'Email of the developer; only on development environments.' }), api_credentials: arr(ref('ApiCredential')),
    }),
    EnvironmentsList: obj(['items', 'pageInfo', 'data', 'pagination'], {
      items: arr(ref('Environment'), { description: 'Whole list unless first is given.' }), pageInfo: ref('PageInfo'),
      data: { ...arr(ref('Environment')), deprecated: true, description: 'Sliced by offset/limit.' }, pagination: { ...ref('OffsetPagination'), deprecated: true },
    }),
    MetaTokenRequest: obj(['security_context'], { security_context: anyObj(), expires_in: num({ exclusiveMinimum: 0, maximum: 31536000, default: 86400 }) }),
    MetaToken: obj(['token', 'created_at', 'expires_at', 'security_context', 'scopes'], { token: str({ description: 'JWT' }), created_at: dt(), expires_at: dt(), security_context: anyObj(), scopes: arr(str()) }),
    StagingToggleRequest: obj(['enabled'], { enabled: bool(), branchName: str(), branchId: int() }, { description: 'One of branchName or branchId is required.' }),
    Branch: obj(['id', 'name', 'lastHash', 'isStagingEnvironmentEnabled'], {
      id: int(), name: str(), parentBranch: str({ description: 'Left out for the production branch.' }), lastHash: str(), isStagingEnvironmentEnabled: bool(),
    }),
    BranchCreate: obj(['name'], { name: str({ pattern: '^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$' }), from: str(), activate: bool() }),
    BranchesList: cursorList(ref('Branch')),
    BranchDeleted: obj(['name', 'id', 'deleted', 'removedOnUpstream'], { name: str(), id: int(), deleted: bool(), removedOnUpstream: bool() }),
    DevModeStart: obj([], { branchName: str({ description: 'Omit to use (or create) your personal branch.' }) }),
    DevModeState: obj(['active'], { active: bool(), branchName: str(), startedAt: dt() }),
    VersionEntry: obj(['releaseChannelVersion', 'version', 'releaseChannel', 'isLatestInChannel', 'isCurrent'], {
      releaseChannelVersion: str({ examples: ['cubejs/cube:v1.7.20'] }), version: str(), releaseChannel: en(['latest', 'release']), isLatestInChannel: bool(), isCurrent: bool(),
    }),
    VersionsList: obj(['items', 'pageInfo'], { items: arr(ref('VersionEntry')), pageInfo: ref('PageInfo') }),
    DeploymentUpdate: obj([], {
      name: str({ minLength: 1 }), cloudProvider: en(['hosted', 'aws', 'gcp']), region: str(), releaseChannel: en(['latest', 'release']),
      releaseChannelVersion: str({ description: '1.7.20, v1.7.20 or cubejs/cube:v1.7.20; must be listed by the versions endpoint (else 400).' }),
      releaseChannelVersionHold: bool(), template: str(), templateVariables: { type: 'object', additionalProperties: nullable(str()), description: 'Merged key by key; null removes a key.' },
      defaultLaunchpadViewGroup: nullable(str()), launchpadTabs: arr({}), creationMethod: en(['upload', 'hosted', 'github', 'ssh']), deployMode: en(['git', 'cli']),
    }),
    DeploymentCreate: obj(['name'], {
      name: str({ minLength: 1 }), cloudProvider: en(['hosted', 'aws', 'gcp']), region: str(), releaseChannel: en(['latest', 'release']), template: str(),
      creationMethod: en(['upload', 'hosted', 'github', 'ssh']), deployMode: en(['git', 'cli']),
    }),
    DeploymentSettings: obj(['id', 'name', 'cloudProvider', 'region', 'releaseChannel', 'releaseChannelVersion', 'version', 'releaseChannelVersionHold', 'image', 'template', 'templateVariables', 'launchpadTabs', 'creationMethod', 'deployMode', 'creationStep', 'envVarNames', 'createdAt'], {
      id: int(), name: str(), cloudProvider: str(), region: str(), releaseChannel: str(), releaseChannelVersion: str(), version: str(), releaseChannelVersionHold: bool(),
      image: str({ description: 'Resolved from the version; read-only.' }), template: str(),
      templateVariables: { type: 'object', additionalProperties: str(), description: 'Secret-named variables are excluded.' },
      defaultLaunchpadViewGroup: str(), launchpadTabs: arr({}), creationMethod: str(), deployMode: str(), creationStep: int(),
      envVarNames: arr(str(), { description: 'Names of non-secret env vars; secrets excluded.' }), createdAt: dt(),
    }),
    DeploymentDeleted: obj(['id', 'deleted'], { id: str(), deleted: bool() }),
    CreationStep: obj(['id', 'creationStep', 'complete'], { id: str(), creationStep: int({ minimum: 1, maximum: 5 }), complete: bool() }),
    ResourceOwner: obj(['id', 'email'], { id: int(), email: str(), firstName: str(), picture: str() }),
    FolderPathEntry: obj(['id', 'name'], { id: int(), name: str() }),
    Position: obj(['x', 'y', 'w', 'h'], { x: int(), y: int(), w: int(), h: int() }),
    DashboardWidget: obj(['id', 'type', 'position'], {
      id: str(), type: en(WIDGET_TYPES), position: ref('Position'), responsiveLayouts: nullable(bpObj(nullable(ref('Position')))),
      config: nullable(anyObj()), style: nullable(anyObj()),
    }, { description: 'TABS_CONTAINER is still accepted on input and converted to CONTAINER with config.layout = "tabs".' }),
    DashboardLayout: obj([], {
      breakpoints: nullable(bpObj(nullable(int()))), cols: nullable(bpObj(nullable(int()))),
      containerPadding: nullable(arr(int())), margin: nullable(arr(int())), rowHeight: nullable(int()),
    }),
    DashboardAppSource: obj([], {
      entry: nullable(str({ maxLength: 255 })), files: nullable({ type: 'object', additionalProperties: str() }), html: nullable(str()),
      manifest: nullable(obj([], { dependencies: nullable({ type: 'object', additionalProperties: str() }), version: nullable(int()) })),
    }),
    DashboardConfig: obj([], {
      kind: nullable(en(['CLASSIC', 'APP'])), title: nullable(str()), description: nullable(str()), widgets: nullable(arr(ref('DashboardWidget'))),
      layout: nullable(ref('DashboardLayout')), settings: nullable(anyObj()), theme: nullable(anyObj()), app: nullable(ref('DashboardAppSource')),
    }),
    ReportSnapshot: obj(['id', 'reportId', 'versionNumber'], {
      id: int(), reportId: int(), versionNumber: int(), kind: en(['vega', 'table', 'kpi', 'html', 'map']), name: str(), title: str(),
      sqlQuery: str(), spec: { anyOf: [str(), anyObj()] }, isSourceReport: bool(),
    }),
    Dashboard: obj(['id', 'publicId', 'deploymentId', 'workbookId', 'status', 'allowEmbed', 'config', 'versionNumber', 'versionId', 'reportSnapshots'], {
      id: int(), publicId: str(), deploymentId: int(), workbookId: int(), status: en(['draft', 'published', 'archived']), allowEmbed: bool(),
      config: ref('DashboardConfig'), versionNumber: int(), versionId: int(), reportSnapshots: arr(ref('ReportSnapshot')),
      createdBy: int(), title: str(), description: str(),
    }),
    Workbook: obj(['id', 'deploymentId', 'name', 'type', 'meta', 'calculatedFields', 'createdAt', 'updatedAt'], {
      id: int(), deploymentId: int(), name: str(), type: itemType, meta: anyObj(), calculatedFields: anyObj(), createdAt: dateOrDt, updatedAt: dateOrDt,
      createdBy: int(), userId: int(), user: ref('ResourceOwner'),
      folderId: int({ description: 'Left out at the workspace root.' }),
      folderPath: arr(ref('FolderPathEntry'), { description: 'Ancestors of the containing folder, root first; left out when empty.' }),
      isFavorite: bool(), slug: str(), dashboardDraft: ref('DashboardConfig'), dashboardPublished: ref('DashboardConfig'), publishedDashboard: ref('Dashboard'),
    }, { description: 'Optional fields are left out (never null) when empty.' }),
    WorkbooksList: obj(['items', 'data', 'count', 'pageInfo'], {
      items: arr(ref('Workbook')), data: { ...arr(ref('Workbook')), deprecated: true }, count: int({ minimum: 0, deprecated: true }), pageInfo: ref('PageInfo'),
    }),
    CloneRequest: obj([], { shared: bool() }),
    UpsertRequest: obj([], { name: str({ minLength: 1, description: 'Defaults to the slug on create.' }), folderId: nullable(int()), meta: anyObj() }),
    ItemRef: obj(['type', 'id'], { type: itemType, id: int() }),
    ItemError: obj(['message', 'status'], { message: str(), status: int() }),
    ItemFailure: obj(['type', 'id', 'error'], { type: itemType, id: int(), error: ref('ItemError') }),
    BulkMoveRequest: obj(['items', 'folderId'], { items: arr(ref('ItemRef'), { maxItems: 100 }), folderId: nullable(int()) }),
    BulkMoveResult: obj(['moved', 'failed'], { moved: arr(ref('Workbook')), failed: arr(ref('ItemFailure')) }),
    BulkDeleteRequest: obj(['items'], { items: arr(ref('ItemRef'), { minItems: 1, maxItems: 100 }) }),
    BulkDeleteResult: obj(['deleted', 'failed'], { deleted: arr(ref('ItemRef')), failed: arr(ref('ItemFailure')) }),
    EmbedAccess: obj(['workbookId', 'allEmbedUsers', 'tenants'], {
      workbookId: int(), allEmbedUsers: en(['read', 'none']),
      tenants: arr(obj(['embedTenantId', 'name', 'action'], { embedTenantId: str(), name: str(), action: en(['read', 'none']) })),
    }),
    EmbedAccessUpdate: obj(['action'], { action: en(['read', 'none']), embedTenantId: nullable(str({ description: 'Omit or null for all embed users.' })) }),
    EnvVar: obj(['name', 'value'], { name: str(), value: str({ description: '[ENCRYPTED] when the name contains PASS, SECRET, TOKEN, KEY or CREDENTIAL (any case).' }) }),
    EnvVarsList: obj(['items', 'data', 'pageInfo'], { items: arr(ref('EnvVar')), data: { ...arr(ref('EnvVar')), deprecated: true }, pageInfo: ref('PageInfo') }),
    EnvVarsPut: obj(['env_variables'], { env_variables: arr(obj(['name', 'value'], { name: str({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), value: str() })) }),
    Folder: obj(['id', 'name', 'position', 'deploymentId', 'createdAt', 'updatedAt', 'type'], {
      id: int(), name: str(), position: int(), deploymentId: int(), createdAt: dateOrDt, updatedAt: dateOrDt, type: en(['FOLDER']),
      parentId: int(), createdBy: int(), user: ref('ResourceOwner'), folderPath: arr(ref('FolderPathEntry')),
    }),
    FoldersList: cursorList(ref('Folder')),
    FolderCreate: obj(['name'], { name: str({ minLength: 1, maxLength: 255 }), parentId: nullable(int()), position: int({ minimum: 0 }) }),
    FolderDeleted: obj(['type', 'id', 'deleted'], { type: en(['FOLDER']), id: int(), deleted: bool() }),
    Report: { allOf: [ref('Workbook'), obj([], { workbookId: int(), publicId: str(), lastViewedAt: dt(), externalWorkbookId: str() })] },
    ReportsList: cursorList(ref('Report')),
  };
}
