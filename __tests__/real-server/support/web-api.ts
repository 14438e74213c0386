/**
 * The harness's side of SonarQube's Web API: an administrator's requests that set the server up
 * (password, users, tokens, quality gates, projects). Parameters go as a form body, as the web
 * client sends them; each request is bounded in time and a refusal names the request and the
 * server's own message.
 */
import { HarnessFailure } from './failure.js'

/** This run's mark, so that a server kept from an earlier run (REAL_SERVER_KEEP) takes new keys. */
const RUN = Date.now().toString(36)

/**
 * A project key, gate name or login of this run.
 *
 * @example unique('verdict-java') // 'verdict-java-mij3k2x1'
 */
export function unique(name: string): string {
  return `${name}-${RUN}`
}

/** Who the requests are from: a login and password, or a token. */
export type Credentials = { login: string; password: string } | { token: string }

/** The administrator's password once the harness set it (long and mixed, as 10.x and later ask). */
export const ADMIN_PASSWORD = 'Gate-Check-Admin-2024'

export class WebApi {
  constructor(
    readonly url: string,
    private readonly credentials: Credentials
  ) {}

  /** GET `path?params`, its JSON body. */
  get<T = unknown>(path: string, params: Record<string, string> = {}): Promise<T> {
    return this.request<T>('GET', path, params)
  }

  /** POST `path` with `params` as a form, its JSON body (or undefined for 204). */
  post<T = unknown>(path: string, params: Record<string, string> = {}): Promise<T> {
    return this.request<T>('POST', path, params)
  }

  /** The Authorization header these credentials send. */
  get authorization(): string {
    const { credentials } = this
    return 'token' in credentials
      ? `Basic ${Buffer.from(`${credentials.token}:`).toString('base64')}`
      : `Basic ${Buffer.from(`${credentials.login}:${credentials.password}`).toString('base64')}`
  }

  private async request<T>(
    method: string,
    path: string,
    params: Record<string, string>
  ): Promise<T> {
    const query = new URLSearchParams(params).toString()
    const target =
      method === 'GET' && query ? `${this.url}/${path}?${query}` : `${this.url}/${path}`
    const step = `${method} ${path}`
    let response: Response
    try {
      response = await fetch(target, {
        method,
        headers: {
          authorization: this.authorization,
          ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {})
        },
        body: method === 'POST' ? query : undefined,
        signal: AbortSignal.timeout(60_000)
      })
    } catch (error) {
      throw new HarnessFailure(step, `no answer from ${this.url}: ${String(error)}`)
    }
    const text = (await response.text()).slice(0, 4_000)
    if (!response.ok) {
      throw new HarnessFailure(step, `the server answered ${response.status}: ${text}`)
    }
    return (text ? JSON.parse(text) : undefined) as T
  }
}

/**
 * Sets the administrator's password (a new server's is `admin`, which 9.9 asks to change on first
 * login and 10.x and later refuse for Web API calls until it is changed) and returns an
 * administrator's client.
 */
export async function administrator(url: string): Promise<WebApi> {
  const admin = new WebApi(url, { login: 'admin', password: ADMIN_PASSWORD })
  try {
    const valid = await admin.get<{ valid: boolean }>('api/authentication/validate')
    if (valid.valid) return admin
  } catch {
    // Not valid yet: the password is still the first one.
  }
  await new WebApi(url, { login: 'admin', password: 'admin' }).post('api/users/change_password', {
    login: 'admin',
    previousPassword: 'admin',
    password: ADMIN_PASSWORD
  })
  return admin
}

/** A token type of `api/user_tokens/generate`. */
export type TokenType = 'USER_TOKEN' | 'GLOBAL_ANALYSIS_TOKEN' | 'PROJECT_ANALYSIS_TOKEN'

/** A new token of `login` (the administrator's own when not given). */
export async function generateToken(
  api: WebApi,
  name: string,
  type: TokenType,
  options: { projectKey?: string; login?: string } = {}
): Promise<string> {
  const params: Record<string, string> = { name: `${name}-${Date.now()}`, type }
  if (options.projectKey) params['projectKey'] = options.projectKey
  if (options.login) params['login'] = options.login
  const reply = await api.post<{ token: string }>('api/user_tokens/generate', params)
  return reply.token
}

/** A new project; `visibility` private keeps it from users without Browse. */
export async function createProject(
  api: WebApi,
  key: string,
  visibility: 'public' | 'private' = 'public'
): Promise<void> {
  await api.post('api/projects/create', { project: key, name: key, visibility })
}

/** One condition of a quality gate: metric, operator, error threshold. */
export interface GateCondition {
  metric: string
  op: 'LT' | 'GT'
  error: string
}

/** A new quality gate with these conditions, given to `projectKey`. */
export async function createGate(
  api: WebApi,
  name: string,
  conditions: GateCondition[],
  projectKey: string
): Promise<void> {
  const gateName = unique(name)
  await api.post('api/qualitygates/create', { name: gateName })
  // 10.x and later create a gate with the Clean as You Code conditions in it: the gate holds
  // exactly the conditions given.
  const created = await api.get<{ conditions?: { id: string | number }[] }>(
    'api/qualitygates/show',
    {
      name: gateName
    }
  )
  for (const { id } of created.conditions ?? []) {
    await api.post('api/qualitygates/delete_condition', { id: String(id) })
  }
  for (const condition of conditions) {
    await api.post('api/qualitygates/create_condition', { gateName, ...condition })
  }
  await api.post('api/qualitygates/select', { gateName, projectKey })
}

/**
 * Takes `permissions` on the project from the group (`sonar-users` holds Browse and See Source
 * Code on every new project through the default permission template, private ones too).
 */
export async function removeGroupPermissions(
  api: WebApi,
  groupName: string,
  projectKey: string,
  permissions: string[]
): Promise<void> {
  for (const permission of permissions) {
    await api.post('api/permissions/remove_group', { groupName, projectKey, permission })
  }
}

/** A new user with a password, and no permission granted. */
export async function createUser(api: WebApi, login: string, password: string): Promise<void> {
  await api.post('api/users/create', { login, name: login, password, local: 'true' })
}
