// Section 'promotions' of the Chinese catalogue (checked against the English one).
import type { Catalogue } from '../types';
import type { promotions as en, promotionResources as enResources } from '../en/promotions';

const days = { mon: '星期一', tue: '星期二', wed: '星期三', thu: '星期四', fri: '星期五', sat: '星期六', sun: '星期日' } as const;

export const promotionResources: Catalogue<typeof enResources> = {
  promotionResource: {
    name: '促销资源',
    fields: {
      id: 'ID',
      name: '名称',
      promotion1: '促销 1（上方，1080×1110）',
      promotion2: '促销 2（下方，1080×610）',
      logo: '标志（280×100）',
      description: '描述',
      createTime: '创建时间',
    },
    filters: { nameLike: '名称' },
  },
  promotionOption: {
    name: '促销选项',
    fields: {
      id: 'ID',
      name: '名称',
      startDate: '开始日期',
      endDate: '结束日期',
      days: '星期',
      startHour: '开始小时',
      endHour: '结束小时',
      fleets: '机群',
      models: '机型',
      description: '描述',
      createTime: '创建时间',
    },
    filters: { nameLike: '名称' },
    enums: { days },
    validation: {
      days: '请从列表中选择星期',
      dates: '开始日期不能晚于结束日期',
      hours: '“结束小时”必须晚于“开始小时”',
    },
  },
  promotionItem: {
    name: '促销项目',
    fields: { id: 'ID', optionId: '选项', position: '顺序', resourceId: '促销资源', durationSeconds: '时长' },
    filters: { optionId: '选项' },
  },
  defaultPromotion: {
    name: '默认促销',
    fields: { id: 'ID', resourceId: '促销资源', durationSeconds: '时长', updateTime: '更新时间' },
    filters: {},
  },
};

export const promotions: Catalogue<typeof en> = {
  optionTabs: { label: '促销选项', options: '选项', items: '项目' },
  preview: {
    title: '机器屏幕上的效果',
    hint: '促销 1 在上方，促销 2 在其下方，标志在角落，与机器显示的一致（按比例缩小）。',
    empty: '无文件',
    video: '视频：%{name}',
    screen: '%{name} 的机器屏幕预览',
  },
  deploy: {
    title: '部署促销',
    hint: '选项（以默认促销作为后备）会生成一个促销包，并部署到选项的机群或机型；未指定机群或机型时，部署到此许可账户的所有机器。',
    option: '选项',
    defaultOnly: '仅默认促销',
    submit: '部署',
    created: '已为 %{count} 台机器创建部署 %{id}',
    open: '打开部署 %{id}',
  },
  deployments: {
    title: '促销部署',
    empty: '尚未部署任何促销。',
    name: '包',
    version: '版本',
    status: '状态',
    progress: '已应用 / 机器',
    failed: '失败',
    createdTime: '创建时间',
  },
  showing: {
    title: '机器正在显示的内容',
    hint: '机器显示其最后报告已应用的促销包；没有的机器显示出厂画面。',
    search: 'RVM 编号',
    termNo: 'RVM',
    model: '机型',
    online: '在线',
    shown: '正在显示',
    appliedTime: '应用时间',
    nothing: '未部署',
    yes: '是',
    no: '否',
  },
};
