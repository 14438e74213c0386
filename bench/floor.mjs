// The floor for the action's overhead: start node, GET the task, GET the gate of its analysis
// (node:http, Basic auth with the token as user, JSON.parse) and print the gate's status.
// Nothing else: no report file, no retries, no checks. Usage: node bench/floor.mjs <ceTaskUrl>
//
// node:http is taken with process.getBuiltinModule, not `import`: on Node 22 and later an ES
// module import of node:http also loads Node's internal undici (25-33 ms), which a minimal
// client does not need and which would make this floor slower than the truest one.
const http = process.getBuiltinModule('node:http')
const { Buffer } = process.getBuiltinModule('node:buffer')

const authorization = `Basic ${Buffer.from(`${process.env.SONAR_TOKEN}:`).toString('base64')}`

function getJson(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization, accept: 'application/json' } }, (response) => {
        let body = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (body += chunk))
        response.on('end', () => resolve(JSON.parse(body)))
      })
      .on('error', reject)
  })
}

const taskUrl = new URL(process.argv[2])
const { task } = await getJson(taskUrl)
const gateUrl = new URL(`/api/qualitygates/project_status?analysisId=${task.analysisId}`, taskUrl)
const { projectStatus } = await getJson(gateUrl)
console.log(projectStatus.status)
