import { useTranslation } from 'react-i18next';
import { MEMBER_ROLES } from '@portal/contract';
import { FormSelect } from '@/forms/index.ts';

/** The role a member gets or has: EMPLOYEE or ADMIN (OWNER comes by transfer, DC by the coach form). */
export function RoleSelect() {
  const { t } = useTranslation();
  return (
    <FormSelect
      name="role"
      label={t('members.columns.role')}
      rules="required"
      helperText={t('members.form.roleHelp')}
      options={MEMBER_ROLES.map((role) => ({ value: role, label: t(`accounts.roles.${role}`) }))}
    />
  );
}
