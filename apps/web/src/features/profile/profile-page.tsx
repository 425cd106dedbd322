import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { LANGUAGES, USER_NAME_MAX, type Language, type User } from '@portal/contract';
import { useMe } from '@/api/session.ts';
import { FormTextField, RuleForm, useRuleForm } from '@/forms/index.ts';
import { Page } from '@/ui/page.tsx';
import { useThemeMode } from '@/ui/theme.tsx';
import { LANGUAGE_NAMES, useLanguage, useSaveName } from './api.ts';

const THEME_MODES = ['light', 'dark', 'auto'] as const;

function PersonalForm({ me }: { me: User }) {
  const { t } = useTranslation();
  const form = useRuleForm<{ name: string }>({ defaultValues: { name: me.name } });
  const save = useSaveName();

  const onSubmit = async ({ name }: { name: string }) => {
    const { data } = await save.mutateAsync(name.trim());
    form.reset({ name: data.name });
  };

  return (
    <RuleForm form={form} onSubmit={onSubmit} aria-label={t('profile.personal')}>
      <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
        <FormTextField
          name="name"
          label={t('profile.name')}
          rules={`required|max:${USER_NAME_MAX}`}
          autoComplete="name"
        />
        <TextField
          label={t('profile.email')}
          value={me.email}
          helperText={t('profile.emailHelp')}
          slotProps={{ htmlInput: { readOnly: true } }}
        />
        <div>
          <Button type="submit" variant="contained" disabled={save.isPending || !form.formState.isDirty}>
            {save.isPending ? t('forms.saving') : t('forms.save')}
          </Button>
        </div>
      </Stack>
    </RuleForm>
  );
}

/** /settings/users: the signed-in user's own profile (name; e-mail read-only) and preferences (language, theme). */
export default function ProfilePage() {
  const { t } = useTranslation();
  const me = useMe();
  const { language, setLanguage } = useLanguage();
  const { mode, setMode } = useThemeMode();

  return (
    <Page title={t('profile.title')}>
      <Stack spacing={3}>
        <Paper
          variant="outlined"
          component="section"
          aria-labelledby="profile-personal"
          sx={{ p: { xs: 2, sm: 3 } }}
        >
          <Typography id="profile-personal" component="h2" variant="h6" sx={{ mb: 2 }}>
            {t('profile.personal')}
          </Typography>
          <PersonalForm me={me} />
        </Paper>
        <Paper
          variant="outlined"
          component="section"
          aria-labelledby="profile-preferences"
          sx={{ p: { xs: 2, sm: 3 } }}
        >
          <Typography id="profile-preferences" component="h2" variant="h6">
            {t('profile.preferences')}
          </Typography>
          <Typography variant="body2" sx={{ mb: 2, color: 'text.secondary' }}>
            {t('profile.preferencesHelp')}
          </Typography>
          <Stack spacing={2.5} sx={{ maxWidth: 520 }}>
            <TextField
              select
              label={t('profile.language')}
              value={language}
              onChange={(event) => setLanguage(event.target.value as Language)}
            >
              {LANGUAGES.map((code) => (
                <MenuItem key={code} value={code} lang={code}>
                  {LANGUAGE_NAMES[code]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label={t('profile.theme')}
              value={mode}
              onChange={(event) => setMode(event.target.value as (typeof THEME_MODES)[number])}
            >
              {THEME_MODES.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`profile.themes.${value}`)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
        </Paper>
      </Stack>
    </Page>
  );
}
