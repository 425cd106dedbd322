export { type RuleFunction } from './validate.ts';
export { registerRule, type RuleContext } from './rules.ts';
export { useRuleForm, type RuleForm as RuleFormApi } from './use-rule-form.ts';
export { RuleForm, FormTextField, FormSelect, FormCheckbox } from './fields.tsx';
export { serverFieldErrors } from './server-errors.ts';
