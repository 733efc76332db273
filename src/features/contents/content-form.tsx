import type { FormikHelpers } from 'formik';
import { useGetCategoriesQuery } from '../../api/categories-api';
import { useCreateContentMutation, useUpdateContentMutation } from '../../api/contents-api';
import { FormCard } from '../../components/form-card';
import { useHistoryTab } from '../../components/audit-history';
import { FormDialog } from '../../components/form-dialog';
import { FormCheckbox, FormSelect, FormTextField, SmsLengthCounter } from '../../components/form-fields';
import { useSubmit } from '../../components/use-submit';
import { CATEGORY_LEVELS, categoryLevelLabel, type CategoryLevel } from '../../domain/category-levels';
import type { Content } from '../../domain/entities';
import { contentSchema } from '../../domain/schemas/catalogue';

export interface ContentFormValues {
  name: string;
  description: string;
  category: string;
  categoryLevel: string;
  message: string;
  active: boolean;
}

export const emptyContentForm: ContentFormValues = { name: '', description: '', category: '0', categoryLevel: '0', message: '', active: false };

export function contentFormOf(content: Content): ContentFormValues {
  return {
    name: content.name ?? '',
    description: content.description ?? '',
    category: content.category?._id ?? '0',
    categoryLevel: content.categoryLevel,
    message: content.message,
    active: content.active,
  };
}

const LEVEL_OPTIONS = CATEGORY_LEVELS.map((level) => ({ value: level, label: categoryLevelLabel(level) }));

/** `wasActive`: the Activate checkbox is disabled when the content is already active (SPEC §2). */
export function ContentFields({ wasActive = false }: { wasActive?: boolean }) {
  const { data } = useGetCategoriesQuery({ page: 1, limit: 100 });
  const categories = (data?.docs ?? []).map((category) => ({ value: category._id, label: category.name }));
  return (
    <>
      <FormTextField name="name" label="Name" />
      <FormSelect name="category" label="Category" options={categories} required />
      <FormSelect name="categoryLevel" label="Category level" options={LEVEL_OPTIONS} required />
      <FormTextField name="message" label="Message" multiline minRows={3} required />
      <SmsLengthCounter name="message" />
      <FormTextField name="description" label="Description" multiline minRows={2} />
      <FormCheckbox name="active" label="Activate" disabled={wasActive} />
    </>
  );
}

/** Saves a content with SPEC §8's texts, the update toast as DESIGN §5 fixed it; resolves true on success. */
export function useSaveContent() {
  const submit = useSubmit();
  const [create] = useCreateContentMutation();
  const [update] = useUpdateContentMutation();
  return (values: ContentFormValues, helpers: FormikHelpers<ContentFormValues>, id?: string): Promise<boolean> => {
    const body = {
      name: values.name.trim() || null,
      description: values.description.trim() || null,
      category: values.category,
      categoryLevel: values.categoryLevel as CategoryLevel,
      message: values.message,
      active: values.active,
    };
    return submit(() => (id ? update({ id, ...body }).unwrap() : create(body).unwrap()), {
      success: id ? 'Successfully updated the ticket' : 'Successfully created a ticket',
      failure: id ? 'Unable to update a ticket' : 'Unable to create a ticket',
      helpers,
    });
  };
}

/** 'Create new content', the second tab of the contents screen. */
export function CreateContentForm() {
  const save = useSaveContent();
  return (
    <FormCard title="Create new content" schema={contentSchema} initialValues={emptyContentForm} onSubmit={(values, helpers) => save(values, helpers)} submitLabel="Create content">
      <ContentFields />
    </FormCard>
  );
}

/** 'Update content', opened by a row's Edit. */
export function EditContentDialog({ content, onClose }: { content: Content; onClose: () => void }) {
  const save = useSaveContent();
  const history = useHistoryTab('content', content._id);
  return (
    <FormDialog
      open
      onClose={onClose}
      title="Update content"
      tabs={history}
      subtitle="You can edit your content"
      schema={contentSchema}
      initialValues={contentFormOf(content)}
      onSubmit={(values, helpers) => save(values, helpers, content._id)}
      submitLabel="Update"
    >
      <ContentFields wasActive={content.active} />
    </FormDialog>
  );
}
