/**
 * One rule for the commit every platform's decoration goes on (decoratedCommit): --commit when
 * given, which wins over the CI's; else the commit the CI names.
 */
import { describe, expect, it } from 'vitest'
import { bitbucketPipeline, decoratedCommit, gitlabPipeline } from '../../src/ci/review-targets.js'

const CI = '1'.repeat(40)
const GIVEN = 'a'.repeat(40)

describe('the commit decorated: --commit, else the CI’s', () => {
  it('the rule itself', () => {
    expect(decoratedCommit({ commit: GIVEN }, CI)).toBe(GIVEN)
    expect(decoratedCommit({}, CI)).toBe(CI)
    expect(decoratedCommit({ commit: undefined }, undefined)).toBeUndefined()
  })

  it('GitLab: the statuses on --commit, naming no pipeline (the pipeline is of another commit)', () => {
    const env = {
      CI_API_V4_URL: 'https://gitlab.example.com/api/v4',
      CI_PROJECT_ID: '7',
      CI_PROJECT_URL: 'https://gitlab.example.com/acme/shop',
      CI_COMMIT_SHA: CI,
      CI_PIPELINE_ID: '99'
    }
    expect(gitlabPipeline(env)).toMatchObject({ pipeline: { sha: CI, pipelineId: '99' } })
    const given = gitlabPipeline(env, GIVEN)
    expect(given).toMatchObject({ pipeline: { sha: GIVEN, pipelineId: undefined } })
    const link = 'pipeline' in given ? given.pipeline.fileLink?.('src/app.ts', 3) : undefined
    expect(link).toContain(`/-/blob/${GIVEN}/src/app.ts`)
    // --commit equal to the pipeline's commit keeps the pipeline.
    expect(gitlabPipeline(env, CI)).toMatchObject({ pipeline: { sha: CI, pipelineId: '99' } })
  })

  it('Bitbucket Cloud: the status and report on --commit', () => {
    const env = { BITBUCKET_REPO_FULL_NAME: 'acme/shop', BITBUCKET_COMMIT: CI }
    expect(bitbucketPipeline(env)).toMatchObject({ pipeline: { commit: CI } })
    expect(bitbucketPipeline(env, GIVEN)).toMatchObject({ pipeline: { commit: GIVEN } })
  })
})
