import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'service/dist/',
      'build/',
      'node_modules/',
      'coverage/',
      '.tmp/',
      'examples/**/vendor/'
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' }
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'off'
    }
  },
  {
    // Type-checked rules, over one program: the root tsconfig.json's, which `npm run typecheck`
    // checks (it includes service/src and every test). One program lints faster and in less
    // memory than one per tsconfig.json.
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname }
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // A Message or a Reference in a plain template would lose what it is: msg`` keeps it.
      '@typescript-eslint/restrict-template-expressions': 'error',
      '@typescript-eslint/restrict-plus-operands': 'error'
    }
  },
  {
    // A Message has no text of its own: neither String(), .join() nor a template makes one.
    files: ['src/**/*.ts'],
    rules: { '@typescript-eslint/no-base-to-string': 'error' }
  },
  { files: ['**/*.{js,mjs,cjs}'], ...tseslint.configs.disableTypeChecked }
)
