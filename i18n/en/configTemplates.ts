// Service › generateConfigFile (docs/machine-configuration.md#generate-config-file): the template store's labels and
// the Generate dialog.
export const configTemplateResources = {
  configTemplate: {
    name: 'Config template |||| Config templates',
    fields: { id: 'ID', name: 'Name', targetModels: 'Target models', description: 'Description', updateTime: 'Update time' },
    filters: { nameLike: 'Name' },
  },
  configTemplateContent: {
    name: 'Template content |||| Template contents',
    fields: { id: 'ID', templateId: 'Template', contentId: 'Content ID', position: 'Order', format: 'Format', body: 'Body', updateTime: 'Update time' },
    filters: { templateId: 'Template', contentIdLike: 'Content ID' },
    enums: { format: { text: 'Text', json: 'JSON' } },
    validation: {
      json: 'The body is not valid JSON',
      contentId: 'Letters, digits, ".", "_" and "-" only',
    },
  },
} as const;

export const configTemplates = {
  tabs: { label: 'Config templates', templates: 'Templates', contents: 'Contents' },
  generate: {
    open: 'Generate',
    title: 'Generate config file',
    intro: "The file combines the template's contents in order with the latest saved version of each configuration chosen. Check the preview, then make it a package to deploy.",
    template: 'Template',
    kinds: 'Configurations',
    preview: 'Preview',
    previewTitle: '%{file} · %{bytes} bytes',
    sections: 'Configuration versions: %{list}',
    noSections: 'No configuration version included.',
    missing: 'No saved version yet, left out: %{list}',
    none: 'No template yet: add one first.',
    pick: 'Choose a template and press Preview.',
    makePackage: 'Make package',
    packageTitle: 'Package of the generated file',
    packageIntro: 'The generated file becomes a package of type %{type}; deploy it to machines from Service › Setup › Deployments.',
    close: 'Close',
  },
} as const;
