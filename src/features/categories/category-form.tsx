import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import TextField from '@mui/material/TextField';
import { FastField, type FieldProps, type FormikHelpers } from 'formik';
import { useCreateCategoryMutation, useUpdateCategoryMutation, type CategoryRequest } from '../../api/categories-api';
import { useGetUsersQuery } from '../../api/users-api';
import { FormCard } from '../../components/form-card';
import { useHistoryTab } from '../../components/audit-history';
import { FormDialog } from '../../components/form-dialog';
import { FormSelect, FormTextField, type SelectOption } from '../../components/form-fields';
import { useSubmit } from '../../components/use-submit';
import { CATEGORY_LEVELS, REQUIRED_PRICE_LEVELS, categoryLevelLabel, type CategoryLevel } from '../../domain/category-levels';
import type { Category } from '../../domain/entities';
import { categorySchema } from '../../domain/schemas/catalogue';

export type CategoryFormValues = { name: string; description: string; user: string } & Record<CategoryLevel, string>;

const emptyPrices = Object.fromEntries(CATEGORY_LEVELS.map((level) => [level, ''])) as Record<CategoryLevel, string>;

export const emptyCategoryForm: CategoryFormValues = { name: '', description: '', user: '0', ...emptyPrices };

export function categoryFormOf(category: Category): CategoryFormValues {
  const prices = Object.fromEntries(
    CATEGORY_LEVELS.map((level) => [level, category[level] === null || category[level] === undefined ? '' : String(category[level])]),
  ) as Record<CategoryLevel, string>;
  return { name: category.name, description: category.description ?? '', user: category.user?._id ?? '0', ...prices };
}

function toRequest(values: CategoryFormValues): CategoryRequest {
  const prices = Object.fromEntries(
    CATEGORY_LEVELS.map((level) => [level, values[level] === '' ? null : Number(values[level])]),
  ) as Record<CategoryLevel, number | null>;
  return { name: values.name.trim(), description: values.description.trim() || null, user: values.user, ...prices };
}

/** Agents from GET /v1/users?page=1&limit=100 (SPEC §7); only agents own categories. */
function useAgentOptions(): SelectOption[] {
  const { data } = useGetUsersQuery({ page: 1, limit: 100 });
  return (data?.docs ?? []).filter((user) => user.role === 'agent').map((user) => ({ value: user._id, label: user.userName }));
}

/** A FastField: typing one price re-renders that input only, not all nineteen. */
function PriceField({ level }: { level: CategoryLevel }) {
  return (
    <FastField name={level}>
      {({ field, meta }: FieldProps<string, CategoryFormValues>) => {
        const invalid = Boolean(meta.touched && meta.error);
        return (
          <TextField
            {...field}
            value={field.value ?? ''}
            id={level}
            label={categoryLevelLabel(level)}
            type="number"
            required={REQUIRED_PRICE_LEVELS.includes(level)}
            error={invalid}
            helperText={invalid ? meta.error : undefined}
            fullWidth
            size="small"
            margin="dense"
            slotProps={{ htmlInput: { min: 0, step: 1 } }}
          />
        );
      }}
    </FastField>
  );
}

/** Name, agent, description and the 19 level prices in a responsive grid. */
export function CategoryFields() {
  const agents = useAgentOptions();
  return (
    <>
      <FormTextField name="name" label="Category name" required />
      <FormSelect name="user" label="Agent" options={agents} required />
      <FormTextField name="description" label="Description" />
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        Prices per level
      </Typography>
      {/* Columns follow the container (card or dialog), not the viewport. */}
      <Box sx={{ display: 'grid', columnGap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))' }}>
        {CATEGORY_LEVELS.map((level) => (
          <PriceField key={level} level={level} />
        ))}
      </Box>
    </>
  );
}

/** Saves a category and tells the person how it went (SPEC §8); resolves true on success. */
export function useSaveCategory() {
  const submit = useSubmit();
  const [create] = useCreateCategoryMutation();
  const [update] = useUpdateCategoryMutation();
  return (values: CategoryFormValues, helpers: FormikHelpers<CategoryFormValues>, id?: string): Promise<boolean> =>
    submit(() => (id ? update({ id, ...toRequest(values) }).unwrap() : create(toRequest(values)).unwrap()), {
      success: id ? 'Successfully updated the category' : 'Successfully created the category',
      // 409 is ours; 500 is how the legacy server answered a taken name (DESIGN §3).
      failure: (info) =>
        info.status === 409 || info.status === 500
          ? `Category name ${values.name.trim()} is already taken, please try another`
          : id
            ? 'Unable to update a category'
            : 'Unable to create category',
      helpers,
    });
}

/** 'Create new category', the second tab of the categories screen. */
export function CreateCategoryForm() {
  const save = useSaveCategory();
  return (
    <FormCard title="Create new category" schema={categorySchema} initialValues={emptyCategoryForm} onSubmit={(values, helpers) => save(values, helpers)} submitLabel="Create category">
      <CategoryFields />
    </FormCard>
  );
}

/** 'Update category', opened by a row's Edit. */
export function EditCategoryDialog({ category, onClose }: { category: Category; onClose: () => void }) {
  const save = useSaveCategory();
  const history = useHistoryTab('category', category._id);
  return (
    <FormDialog
      open
      onClose={onClose}
      title="Update category"
      tabs={history}
      subtitle="You can edit the category information"
      schema={categorySchema}
      initialValues={categoryFormOf(category)}
      onSubmit={(values, helpers) => save(values, helpers, category._id)}
      submitLabel="Update"
    >
      <CategoryFields />
    </FormDialog>
  );
}
