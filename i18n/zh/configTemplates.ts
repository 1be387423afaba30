// 服务 › 生成配置文件（docs/machine-configuration.md#generate-config-file）：模板库的标签与“生成”对话框。
import type { Catalogue } from '../types';
import type { configTemplateResources as En, configTemplates as EnScreen } from '../en/configTemplates';

export const configTemplateResources: Catalogue<typeof En> = {
  configTemplate: {
    name: '配置模板',
    fields: { id: 'ID', name: '名称', targetModels: '目标机型', description: '描述', updateTime: '更新时间' },
    filters: { nameLike: '名称' },
  },
  configTemplateContent: {
    name: '模板内容',
    fields: { id: 'ID', templateId: '模板', contentId: '内容 ID', position: '顺序', format: '格式', body: '内容', updateTime: '更新时间' },
    filters: { templateId: '模板', contentIdLike: '内容 ID' },
    enums: { format: { text: '文本', json: 'JSON' } },
    validation: {
      json: '内容不是有效的 JSON',
      contentId: '只能包含字母、数字、“.”、“_”和“-”',
    },
  },
};

export const configTemplates: Catalogue<typeof EnScreen> = {
  tabs: { label: '配置模板', templates: '模板', contents: '内容' },
  generate: {
    open: '生成',
    title: '生成配置文件',
    intro: '文件按顺序合并模板的内容，以及所选每项配置最新保存的版本。请先检查预览，再将其制作成软件包以便下发。',
    template: '模板',
    kinds: '配置',
    preview: '预览',
    previewTitle: '%{file} · %{bytes} 字节',
    sections: '配置版本：%{list}',
    noSections: '未包含任何配置版本。',
    missing: '尚无保存的版本，已略过：%{list}',
    none: '还没有模板：请先添加一个。',
    pick: '请选择模板并点击“预览”。',
    makePackage: '制作软件包',
    packageTitle: '生成文件的软件包',
    packageIntro: '生成的文件将成为类型为 %{type} 的软件包；可在 服务 › 设置 › 下发 中将其下发到机器。',
    close: '关闭',
  },
};
