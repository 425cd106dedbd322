export {
  validate,
  isRequired,
  isSchema,
  type Rules,
  type RuleFunction,
  type RuleObject,
} from './validate.ts';
export { rules, registerRule, isEmpty, type RuleContext, type RuleDefinition } from './rules.ts';
export { useRuleForm, type RuleForm as RuleFormApi, type RuleFormOptions } from './use-rule-form.ts';
export { RuleForm, FormTextField, FormSelect, FormCheckbox, type SelectOption } from './fields.tsx';
export { serverFieldErrors, countErrors } from './server-errors.ts';
