import type { FormikHelpers } from 'formik';
import { useGetCategoriesQuery } from '../../api/categories-api';
import { useCreateServiceCodeMutation, useUpdateServiceCodeMutation } from '../../api/service-codes-api';
import { FormCard } from '../../components/form-card';
import { useHistoryTab } from '../../components/audit-history';
import { FormDialog } from '../../components/form-dialog';
import { FormSelect, FormTextField } from '../../components/form-fields';
import { useSubmit } from '../../components/use-submit';
import type { ServiceCode } from '../../domain/entities';
import { serviceCodeSchema } from '../../domain/schemas/catalogue';

export interface ServiceCodeFormValues {
  name: string;
  description: string;
  category: string;
}

export const emptyServiceCodeForm: ServiceCodeFormValues = { name: '', description: '', category: '0' };

export function serviceCodeFormOf(code: ServiceCode): ServiceCodeFormValues {
  return { name: code.name, description: code.description ?? '', category: code.category?._id ?? '0' };
}

/** Code, category (SPEC §9: the dropdown fetches 100) and description. */
export function ServiceCodeFields() {
  const { data } = useGetCategoriesQuery({ page: 1, limit: 100 });
  const categories = (data?.docs ?? []).map((category) => ({ value: category._id, label: category.name }));
  return (
    <>
      <FormTextField name="name" label="Code" placeholder="*217*4#" required />
      <FormSelect name="category" label="Category" options={categories} required />
      <FormTextField name="description" label="Description" multiline minRows={2} />
    </>
  );
}

/** Saves a service code and raises SPEC §8's toasts; resolves true on success. */
export function useSaveServiceCode() {
  const submit = useSubmit();
  const [create] = useCreateServiceCodeMutation();
  const [update] = useUpdateServiceCodeMutation();
  return (values: ServiceCodeFormValues, helpers: FormikHelpers<ServiceCodeFormValues>, id?: string): Promise<boolean> => {
    const body = { name: values.name.trim(), description: values.description.trim() || null, category: values.category };
    return submit(() => (id ? update({ id, ...body }).unwrap() : create(body).unwrap()), {
      success: id ? 'Successfully updated the service code' : 'Successfully registered a service code',
      // 409 is ours; 500 is how the legacy server answered a taken code (DESIGN §3).
      failure: (info) =>
        info.status === 409 || info.status === 500
          ? `Service code ${body.name} is already taken, please try another`
          : id
            ? 'Unable to update service code'
            : 'Unable to register service code',
      helpers,
    });
  };
}

/** 'Register service codes', the second tab of the service codes screen. */
export function CreateServiceCodeForm() {
  const save = useSaveServiceCode();
  return (
    <FormCard title="Register service codes" schema={serviceCodeSchema} initialValues={emptyServiceCodeForm} onSubmit={(values, helpers) => save(values, helpers)} submitLabel="Register">
      <ServiceCodeFields />
    </FormCard>
  );
}

/** 'Update service code', opened by a row's Edit. */
export function EditServiceCodeDialog({ serviceCode, onClose }: { serviceCode: ServiceCode; onClose: () => void }) {
  const save = useSaveServiceCode();
  const history = useHistoryTab('service-code', serviceCode._id);
  return (
    <FormDialog
      open
      onClose={onClose}
      title="Update service code"
      tabs={history}
      schema={serviceCodeSchema}
      initialValues={serviceCodeFormOf(serviceCode)}
      onSubmit={(values, helpers) => save(values, helpers, serviceCode._id)}
      submitLabel="Update"
    >
      <ServiceCodeFields />
    </FormDialog>
  );
}
