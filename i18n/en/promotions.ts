// Section 'promotions' (the Promotion area's screens, docs/promotions.md) and the labels of its declarations.
const days = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' } as const;

export const promotionResources = {
  promotionResource: {
    name: 'Promotion resource |||| Promotion resources',
    fields: {
      id: 'ID',
      name: 'Name',
      promotion1: 'Promotion 1 (top, 1080×1110)',
      promotion2: 'Promotion 2 (bottom, 1080×610)',
      logo: 'Logo (280×100)',
      description: 'Description',
      createTime: 'Create time',
    },
    filters: { nameLike: 'Name' },
  },
  promotionOption: {
    name: 'Promotion option |||| Promotion options',
    fields: {
      id: 'ID',
      name: 'Name',
      startDate: 'First day',
      endDate: 'Last day',
      days: 'Days of the week',
      startHour: 'From hour',
      endHour: 'Until hour',
      fleets: 'Fleets',
      models: 'Models',
      description: 'Description',
      createTime: 'Create time',
    },
    filters: { nameLike: 'Name' },
    enums: { days },
    validation: {
      days: 'Choose days from the list',
      dates: 'The first day must not be after the last day',
      hours: '"Until hour" must be after "From hour"',
    },
  },
  promotionItem: {
    name: 'Promotion item |||| Promotion items',
    fields: { id: 'ID', optionId: 'Option', position: 'Order', resourceId: 'Promotion resource', durationSeconds: 'Duration' },
    filters: { optionId: 'Option' },
  },
  defaultPromotion: {
    name: 'Default promotion |||| Default promotions',
    fields: { id: 'ID', resourceId: 'Promotion resource', durationSeconds: 'Duration', updateTime: 'Update time' },
    filters: {},
  },
} as const;

export const promotions = {
  optionTabs: { label: 'Promotion options', options: 'Options', items: 'Items' },
  preview: {
    title: "On the machine's screen",
    hint: 'Promotion 1 on top, promotion 2 below it, the logo in the corner, as a machine shows them (scaled down).',
    empty: 'No file',
    video: 'Video: %{name}',
    screen: 'Preview of the machine screen for %{name}',
  },
  deploy: {
    title: 'Deploy a promotion',
    hint: "An option (with the default promotion as its fallback) becomes a promotion package and a deployment to the option's fleets or models; without fleets or models, to every machine of the license account.",
    option: 'Option',
    defaultOnly: 'The default promotion alone',
    submit: 'Deploy',
    created: 'Deployment %{id} created for %{count} machines',
    open: 'Open deployment %{id}',
  },
  deployments: {
    title: 'Promotion deployments',
    empty: 'No promotion was deployed yet.',
    name: 'Package',
    version: 'Version',
    status: 'Status',
    progress: 'Applied / machines',
    failed: 'Failed',
    createdTime: 'Created',
  },
  showing: {
    title: 'What the machines show',
    hint: 'A machine shows the last promotion package it reported as applied; a machine with none shows its factory screen.',
    search: 'RVM number',
    termNo: 'RVM',
    model: 'Model',
    online: 'Online',
    shown: 'Showing',
    appliedTime: 'Applied',
    nothing: 'Nothing deployed',
    yes: 'Yes',
    no: 'No',
  },
} as const;
